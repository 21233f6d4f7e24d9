import IsobarCore

/// The options of an `nws-alerts` entry: who runs Isobar, as the NWS API asks of every client.
public struct NWSAlertsOptions: Sendable, Equatable {
    /// `contact`: an e-mail address or URL sent in the User-Agent; nil to read `ISOBAR_CONTACT`.
    public var contact: String?

    /// Options with `contact`.
    public init(contact: String?) { self.contact = contact }

    /// The keys an nws-alerts entry has of its own.
    public static let keys = ["contact"]

    /// `contact`, a string, when present.
    public static func read(_ source: OptionSource) throws(OptionError) -> ProviderOptions {
        try OptionError.reading {
            let contact = try source.entry.optionalString("contact")
            return ProviderOptions(NWSAlertsOptions(contact: contact), contact: contact)
        }
    }
}
