import IsobarCore

extension METAlertsProvider {
    /// The environment variable a contact is read from when the configuration entry sets none.
    public static let contactVariable = "ISOBAR_CONTACT"

    /// How Isobar builds MetAlerts from a configuration entry: no key, but a contact is required to go live; the text's
    /// language follows the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`).
    public static func factory(application: String) -> ProviderFactory {
        ProviderFactory(
            type: "met-alerts", summary: "MET Norway MetAlerts: warnings in force (CAP), Norway and its waters; no key, a contact required",
            optionKeys: ContactOptions.keys, readOptions: ContactOptions.read, contactVariable: contactVariable, kinds: [.alerts],
            make: { context throws(ProviderError) in
                let service = ContactedService(context, baseURL: defaultBaseURL, variable: contactVariable, application: application)
                return METAlertsProvider(configuration: Configuration(service: service, language: AlertLanguage.fromEnvironment(context.environment)))
            })
    }
}
