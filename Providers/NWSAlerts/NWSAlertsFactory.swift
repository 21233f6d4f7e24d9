import IsobarCore

extension NWSAlertsProvider {
    /// The environment variable a contact is read from when the configuration entry sets none.
    public static let contactVariable = "ISOBAR_CONTACT"

    /// How Isobar builds the NWS alerts source from a configuration entry: no key, but a contact is required to go live.
    public static func factory(application: String) -> ProviderFactory {
        ProviderFactory(
            type: "nws-alerts", summary: "US National Weather Service: active warnings (CAP), United States only; no key, a contact required",
            optionKeys: NWSAlertsOptions.keys, readOptions: NWSAlertsOptions.read, contactVariable: contactVariable, kinds: [.alerts],
            make: { context throws(ProviderError) in
                let settings = context.settings
                let contact = settings.options.value(as: NWSAlertsOptions.self)?.contact ?? context.environment[contactVariable]
                var configuration = Configuration(id: settings.id, contact: contact, application: application)
                configuration.requiresContact = !settings.isReplay
                configuration.configurationFile = settings.configurationFile.map { ($0, settings.configurationFileExists) }
                if let url = settings.baseURL { configuration.baseURL = url }
                return NWSAlertsProvider(configuration: configuration)
            })
    }
}
