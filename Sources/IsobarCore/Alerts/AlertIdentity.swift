import FoundationEssentials

/// The identity of a CAP message: who sent it, its identifier, and when it was sent.
public struct AlertIdentity: Sendable, Hashable {
    /// The sender (CAP `sender`, e.g. `w-nws.webmaster@noaa.gov`); empty when a source does not say.
    public var sender: String
    /// The identifier, unique for the sender (CAP `identifier`; NWS `id`).
    public var identifier: String
    /// When the message was sent, when known.
    public var sent: Date?

    /// Creates an identity.
    public init(sender: String, identifier: String, sent: Date? = nil) {
        self.sender = sender
        self.identifier = identifier
        self.sent = sent
    }

    /// True when `reference` names this message: the same identifier, and the same sender when both say one (`sent` is
    /// informative only: some senders restate it with another offset).
    public func isNamed(by reference: AlertIdentity) -> Bool {
        guard identifier == reference.identifier else { return false }
        return sender.isEmpty || reference.sender.isEmpty || sender == reference.sender
    }

    /// Reads a CAP `references` value: space-separated `sender,identifier,sent` triples; malformed entries are skipped.
    public static func references(cap text: String) -> [AlertIdentity] {
        text.split(whereSeparator: \.isWhitespace).compactMap { triple in
            let parts = triple.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 2, !parts[1].isEmpty else { return nil }
            return AlertIdentity(sender: parts[0], identifier: parts[1], sent: parts.count > 2 ? CivilTime.instant(iso: parts[2]) : nil)
        }
    }
}
