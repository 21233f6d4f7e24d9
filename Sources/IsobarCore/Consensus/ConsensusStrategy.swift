import FoundationEssentials

/// How the answers to one request become each provider's local days and one merged result: the engine asks, the
/// consensus module answers.
///
/// It is declared in Core because both sides depend on Core alone: the engine calls it without knowing the merge, and
/// the merge implements it without knowing the engine.
public protocol ConsensusStrategy: Sendable {
    /// The merged result of one request's answers.
    associatedtype Merged: Sendable
    /// The local calendar of a place, found once per request and used for each of its answers.
    associatedtype Calendar: Sendable

    /// The place's calendar in its own named zone; nil when it has none or its file cannot be used (each answer's own
    /// UTC offset decides then).
    func calendar(for place: Place) -> Calendar?

    /// One answer placed in `calendar` (nil: a calendar from the answer's own offset), judged at `reference`; its days
    /// only when `wantsDays`.
    func placed(_ report: WeatherReport, at place: Place, calendar: Calendar?, reference: Date, wantsDays: Bool) -> PlacedAnswer

    /// The merge of the answers (in display order) for `place`, lead times counted from `now`; `sources` gives each
    /// source id's identity (its provider and family).
    func merge(_ reports: [WeatherReport], place: Place, sources: [String: SourceIdentity], now: Date) -> Merged
}

/// One provider's answer in the local calendar of the place asked about.
public struct PlacedAnswer: Sendable, Equatable {
    /// Its own days, or days computed from its steps (complete local days only); empty when days were not asked for.
    public var days: [DailyPoint]
    /// Where its forecast ends, when that is before the place's current local day; nil otherwise.
    public var forecastEnded: Date?

    /// Creates a placed answer.
    public init(days: [DailyPoint], forecastEnded: Date? = nil) {
        self.days = days
        self.forecastEnded = forecastEnded
    }
}
