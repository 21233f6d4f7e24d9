/// How bad an alert's event is expected to be (CAP `severity`); ordered from least to most severe.
public enum AlertSeverity: String, Sendable, CaseIterable, Comparable {
    /// Not known.
    case unknown = "Unknown"
    /// Minimal to no known threat to life or property.
    case minor = "Minor"
    /// Possible threat to life or property.
    case moderate = "Moderate"
    /// Significant threat to life or property.
    case severe = "Severe"
    /// Extraordinary threat to life or property.
    case extreme = "Extreme"

    /// The rank used for ordering: unknown lowest, extreme highest.
    var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// True when `lhs` is less severe than `rhs`.
    public static func < (lhs: AlertSeverity, rhs: AlertSeverity) -> Bool { lhs.rank < rhs.rank }

    /// The CAP value, read without regard to case; unknown for anything else.
    public init(cap text: String?) { self = Self.allCases.first { $0.rawValue.lowercased() == text?.lowercased() } ?? .unknown }
}

/// How soon action is needed (CAP `urgency`); ordered from least to most urgent.
public enum AlertUrgency: String, Sendable, CaseIterable, Comparable {
    /// Not known.
    case unknown = "Unknown"
    /// Action is no longer needed.
    case past = "Past"
    /// Action should be taken in the near future.
    case future = "Future"
    /// Action should be taken soon (within the next hour).
    case expected = "Expected"
    /// Action should be taken now.
    case immediate = "Immediate"

    /// The rank used for ordering: unknown lowest, immediate highest.
    var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// True when `lhs` is less urgent than `rhs`.
    public static func < (lhs: AlertUrgency, rhs: AlertUrgency) -> Bool { lhs.rank < rhs.rank }

    /// The CAP value, read without regard to case; unknown for anything else.
    public init(cap text: String?) { self = Self.allCases.first { $0.rawValue.lowercased() == text?.lowercased() } ?? .unknown }
}

/// How sure the issuer is that the event happens (CAP `certainty`; CAP 1.0's `Very Likely` reads as likely).
public enum AlertCertainty: String, Sendable, CaseIterable {
    /// Not known.
    case unknown = "Unknown"
    /// Not expected to occur (p ≈ 0).
    case unlikely = "Unlikely"
    /// Possible but not likely (p ≤ 50 %).
    case possible = "Possible"
    /// Likely (p > 50 %).
    case likely = "Likely"
    /// Determined to have occurred or to be ongoing.
    case observed = "Observed"

    /// The CAP value, read without regard to case; unknown for anything else.
    public init(cap text: String?) {
        let lowered = text?.lowercased()
        self = lowered == "very likely" ? .likely : Self.allCases.first { $0.rawValue.lowercased() == lowered } ?? .unknown
    }
}

/// What a CAP message does to the alerts it references.
public enum AlertMessageType: String, Sendable, CaseIterable {
    /// A new alert.
    case alert = "Alert"
    /// Replaces every alert it references.
    case update = "Update"
    /// Withdraws every alert it references.
    case cancel = "Cancel"

    /// The CAP `msgType`, read without regard to case; nil for the types that carry no warning (`Ack`, `Error`) or anything else.
    public init?(cap text: String?) {
        guard let found = Self.allCases.first(where: { $0.rawValue.lowercased() == text?.lowercased() }) else { return nil }
        self = found
    }
}
