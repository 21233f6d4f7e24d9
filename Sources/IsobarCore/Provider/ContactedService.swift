/// How a service whose terms ask every client for a contact in its `User-Agent` (MET Norway, the US National Weather Service)
/// is reached: the same settings for each, read from a configuration entry the same way.
public struct ContactedService: Sendable {
    /// Provider id shown in output.
    public var id: String
    /// Base URL, the service's own unless pointed elsewhere.
    public var baseURL: RequestURL
    /// An e-mail address or URL where the service can reach whoever runs this copy; required to go live.
    public var contact: String?
    /// The application named in the `User-Agent`, e.g. `isobar/0.1.0`.
    public var application: String
    /// False when answers are replayed, which needs no contact.
    public var requiresContact = true
    /// The user's configuration file, named when the contact is missing, and whether it exists yet; nil when unknown.
    public var configurationFile: (path: String, exists: Bool)?

    /// Settings with `contact` (kept only when it is one, see `ContactTerms.contact`).
    public init(id: String, baseURL: RequestURL, contact: String? = nil, application: String = "isobar") {
        self.id = id
        self.baseURL = baseURL
        self.contact = ContactTerms.contact(contact)
        self.application = application
    }

    /// The settings of a configuration entry: its contact (or the one in the environment's `variable`), whether it is
    /// replayed, its configuration file and its base URL (else `baseURL`).
    public init(_ context: ProviderContext, baseURL: RequestURL, variable: String, application: String) {
        let settings = context.settings
        let contact = settings.options.value(as: ContactOptions.self)?.contact ?? context.environment[variable]
        self.init(id: settings.id, baseURL: settings.baseURL ?? baseURL, contact: contact, application: application)
        requiresContact = !settings.isReplay
        configurationFile = settings.configurationFile.map { ($0, settings.configurationFileExists) }
    }

    /// Not set up when it goes live without a contact: `asking` (e.g. "MET Norway's terms ask") and how to give one.
    public func missingContact(_ asking: String, variable: String) -> ProviderError? {
        guard contact == nil && requiresContact else { return nil }
        return ContactTerms.missing(asking, id: id, variable: variable, file: configurationFile)
    }
}

/// The options of an entry whose service asks for a contact: `contact` only.
public struct ContactOptions: Sendable, Equatable {
    /// `contact`: an e-mail address or URL sent in the User-Agent; nil to read the type's contact variable.
    public var contact: String?

    /// Options with `contact`.
    public init(contact: String?) { self.contact = contact }

    /// The keys such an entry has of its own.
    public static let keys = ["contact"]

    /// `contact`, a string, when present.
    public static func read(_ source: OptionSource) throws(OptionError) -> ProviderOptions {
        try OptionError.reading {
            let contact = try source.entry.optionalString("contact")
            return ProviderOptions(ContactOptions(contact: contact), contact: contact)
        }
    }
}

extension ProviderFactory {
    /// A type whose service asks for a contact and no key: `contact` is its one option (else the environment's `variable`),
    /// and `make` builds the provider from the entry's `ContactedService` (base URL `baseURL` unless the entry sets one).
    public static func contacted(type: String, summary: String, kinds: Set<DataKind> = DataKind.weather, variable: String,
                                 baseURL: @autoclosure @escaping @Sendable () -> RequestURL, application: String,
                                 make: @escaping @Sendable (ContactedService) -> any WeatherProvider) -> ProviderFactory {
        ProviderFactory(
            type: type, summary: summary, optionKeys: ContactOptions.keys, readOptions: ContactOptions.read, contactVariable: variable,
            kinds: kinds,
            make: { context throws(ProviderError) in
                make(ContactedService(context, baseURL: baseURL(), variable: variable, application: application))
            })
    }
}
