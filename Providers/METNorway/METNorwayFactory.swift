import IsobarCore

extension METNorwayProvider {
    /// The environment variable a contact is read from when the configuration entry sets none.
    public static let contactVariable = "ISOBAR_CONTACT"

    /// How Isobar builds MET Norway from a configuration entry: no key, but a contact is required to go live.
    public static func factory(application: String) -> ProviderFactory {
        ProviderFactory(
            type: "met-norway", summary: "MET Norway: current, hourly, 9 days; no key, a contact required (CC BY 4.0)",
            optionKeys: METNorwayOptions.keys, readOptions: METNorwayOptions.read, contactVariable: contactVariable,
            make: { context throws(ProviderError) in
                let settings = context.settings
                let contact = settings.options.value(as: METNorwayOptions.self)?.contact ?? context.environment[contactVariable]
                var configuration = Configuration(id: settings.id, contact: contact, application: application)
                configuration.requiresContact = !settings.isReplay
                configuration.configurationFile = settings.configurationFile.map { ($0, settings.configurationFileExists) }
                if let url = settings.baseURL { configuration.baseURL = url }
                return METNorwayProvider(configuration: configuration)
            })
    }
}
