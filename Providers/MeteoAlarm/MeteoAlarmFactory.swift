import IsobarCore

extension MeteoAlarmProvider {
    /// How Isobar builds the MeteoAlarm source from a configuration entry: no key and no contact; `country` is required,
    /// `areas` optional; the text's language follows the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`).
    public static func factory(application: String) -> ProviderFactory {
        ProviderFactory(
            type: "meteoalarm", summary: "MeteoAlarm (EUMETNET): warnings of Europe's national weather services (CAP), one country per entry; no key",
            optionKeys: MeteoAlarmOptions.keys, readOptions: MeteoAlarmOptions.read, kinds: [.alerts],
            make: { context throws(ProviderError) in
                let settings = context.settings
                guard let options = settings.options.value(as: MeteoAlarmOptions.self) else {
                    throw ProviderError(.notConfigured, "\(settings.id): a meteoalarm entry needs \"country\" (e.g. \"country\": \"GB\")")
                }
                return MeteoAlarmProvider(configuration: Configuration(
                    id: settings.id, baseURL: settings.baseURL ?? defaultBaseURL, application: application, options: options,
                    language: AlertLanguage.fromEnvironment(context.environment)))
            })
    }
}
