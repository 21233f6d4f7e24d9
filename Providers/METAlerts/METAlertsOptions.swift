import IsobarCore

/// The options of a `met-alerts` entry: who runs Isobar, as MET Norway's terms ask.
public struct METAlertsOptions: Sendable, Equatable {
    /// `contact`: an e-mail address or URL sent in the User-Agent; nil to read `ISOBAR_CONTACT`.
    public var contact: String?

    /// Options with `contact`.
    public init(contact: String?) { self.contact = contact }

    /// The keys a met-alerts entry has of its own.
    public static let keys = ["contact"]

    /// `contact`, a string, when present.
    public static func read(_ source: OptionSource) throws(OptionError) -> ProviderOptions {
        try OptionError.reading {
            let contact = try source.entry.optionalString("contact")
            return ProviderOptions(METAlertsOptions(contact: contact), contact: contact)
        }
    }
}
