import FoundationEssentials
import IsobarCore

/// The consensus the engine is given where it is built: the v1 merge with configured weights, refined by the v2 merge
/// when weights are learned, with days in each place's local calendar.
public struct Consensus: ConsensusStrategy {
    /// Weights of providers in the consensus (missing: 1).
    public var weights: [String: Double]
    /// How much the sources of one family weigh together (`family_weight`).
    public var familyWeight: FamilyWeight
    /// What the consensus learns from the record (`"weights": "auto"`); nil for the v1 merge (`--weights equal`).
    public var learning: ConsensusLearning?
    /// The merge's tunable constants.
    public var configuration: ConsensusConfiguration
    /// The calendars of the named zones met so far, shared by the copies of this value.
    private let calendars = ZoneCalendars()

    /// A consensus with the given weighting; the defaults are the v1 merge with equal weights.
    public init(weights: [String: Double] = [:], familyWeight: FamilyWeight = .one, learning: ConsensusLearning? = nil,
                configuration: ConsensusConfiguration = ConsensusConfiguration()) {
        self.weights = weights
        self.familyWeight = familyWeight
        self.learning = learning
        self.configuration = configuration
    }

    /// The place's calendar in its own named zone, its file read once however many requests name it.
    public func calendar(for place: Place) -> LocalCalendar? {
        calendars.calendar(for: place)
    }

    /// The answer's days in `calendar` (else one from its own offset) and where its forecast ended, if before today.
    public func placed(_ report: WeatherReport, at place: Place, calendar: LocalCalendar?, reference: Date, wantsDays: Bool) -> PlacedAnswer {
        let calendar = calendar ?? LocalCalendar.resolve(place: place, reports: [report])
        let days = wantsDays ? ProviderDays.days(of: report, calendar: calendar) : []
        return PlacedAnswer(days: days, forecastEnded: ProviderDays.forecastEnd(of: report, before: reference, calendar: calendar))
    }

    /// The v1 merge of the answers, refined with `learning` when there is one.
    public func merge(_ reports: [WeatherReport], place: Place, sources: [String: SourceIdentity], now: Date) -> ConsensusResult {
        let merged = ConsensusV1.merge(reports, place: place, weights: weights, sources: sources, familyWeight: familyWeight, now: now,
                                       configuration: configuration)
        return learning.map { ConsensusV2.refine(merged, learning: $0, configuration: configuration) } ?? merged
    }
}
