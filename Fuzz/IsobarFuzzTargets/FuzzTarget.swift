import IsobarCore

/// What one input did to a fuzz target: a value, a clean refusal, or a broken promise (a finding).
public enum FuzzOutcome: Sendable, Equatable {
    /// The input was accepted; the text summarises the value.
    case accepted(String)
    /// The input was refused with an error; the text is its message.
    case rejected(String)
    /// The code accepted the input but broke one of its own promises (a value outside its range, a message on two lines).
    case violated(String)

    /// `accepted`, `rejected` or `violated`, as regression files are named.
    public var kind: String {
        switch self {
        case .accepted: "accepted"
        case .rejected: "rejected"
        case .violated: "violated"
        }
    }
}

/// One fuzz target: a name and the whole path a hostile input of that kind takes through Isobar.
public struct FuzzTarget: Sendable {
    /// The name used by `scripts/fuzz.sh`, the replayer and `Tests/FuzzRegressions/<name>/`.
    public let name: String
    /// What the input is, for the target list.
    public let summary: String
    /// Runs one input; never prints, exits or throws.
    public let run: @Sendable ([UInt8]) -> FuzzOutcome

    /// Creates a target.
    public init(name: String, summary: String, run: @escaping @Sendable ([UInt8]) -> FuzzOutcome) {
        self.name = name
        self.summary = summary
        self.run = run
    }

    /// A refusal whose message is checked to be one non-empty line, as every error Isobar shows must be.
    static func refusal(_ message: String) -> FuzzOutcome {
        guard !message.isEmpty, !message.unicodeScalars.contains(where: MessageText.isUnsafe) else {
            return .violated("an error message is empty or holds control characters: \(message.debugDescription)")
        }
        return .rejected(message)
    }
}
