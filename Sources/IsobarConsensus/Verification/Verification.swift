#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import IsobarCore

/// Which provider, field and lead time a score is about.
public struct ScoreKey: Sendable, Hashable, Comparable {
    /// The provider's id.
    public var provider: String
    /// The quantity, e.g. `temperature`.
    public var field: String
    /// The lead-time bucket.
    public var bucket: LeadBucket
    /// What the forecasts were checked against: a station's reports, or a provider's "current" standing in for them.
    public var basis: ObservationBasis

    /// Creates a key; the basis is METAR reports unless given.
    public init(provider: String, field: String, bucket: LeadBucket, basis: ObservationBasis = .metar) {
        self.provider = provider
        self.field = field
        self.bucket = bucket
        self.basis = basis
    }

    public static func < (lhs: ScoreKey, rhs: ScoreKey) -> Bool {
        (lhs.field, lhs.basis, lhs.provider, lhs.bucket) < (rhs.field, rhs.basis, rhs.provider, rhs.bucket)
    }
}

/// What forecasts are checked against: real observations (a station's reports), or a provider's own recent "current"
/// values standing in where no station is near — kept apart, never mixed.
public enum ObservationBasis: Sendable, Hashable, Comparable {
    /// Reports of an observation source, e.g. `metar`.
    case observed(source: String)
    /// A provider's own "current" values as a labelled proxy.
    case proxy(provider: String)

    /// METAR reports.
    public static let metar = ObservationBasis.observed(source: "metar")

    /// The basis as written out: the source (`metar`) or `proxy:<provider>`.
    public var id: String {
        switch self {
        case .observed(let source): source
        case .proxy(let provider): "proxy:" + provider
        }
    }

    /// The basis an id names (`proxy:<provider>` or a source).
    public init(id: String) {
        self = id.hasPrefix("proxy:") ? .proxy(provider: String(id.dropFirst(6))) : .observed(source: id)
    }

    /// True for a provider's values standing in for observations.
    public var isProxy: Bool {
        if case .proxy = self { return true }
        return false
    }
}

/// Forecasts checked against what happened: each archived forecast value paired with the observation nearest its valid
/// time, errors summed per provider, field and lead bucket, recent pairs counting more.
public enum Verification {
    /// One forecast value.
    public struct Forecast: Sendable, Equatable {
        /// The provider's id.
        public var provider: String
        /// Where: any key that is equal for the same place (the archive's rounded coordinates).
        public var place: String
        /// When it was issued.
        public var issuedAt: Date
        /// The instant it is for.
        public var validAt: Date
        /// The value, in the model's unit.
        public var value: Double

        /// Creates a forecast value.
        public init(provider: String, place: String, issuedAt: Date, validAt: Date, value: Double) {
            self.provider = provider
            self.place = place
            self.issuedAt = issuedAt
            self.validAt = validAt
            self.value = value
        }
    }

    /// One observed value.
    public struct Observation: Sendable, Equatable {
        /// Where, keyed as the forecasts are.
        public var place: String
        /// When it was observed.
        public var time: Date
        /// The value, in the model's unit (for an event such as precipitation: 1 when it happened, 0 when not).
        public var value: Double
        /// Where the value comes from; scores on different bases are kept apart.
        public var basis: ObservationBasis

        /// Creates an observed value; METAR unless another basis is given.
        public init(place: String, time: Date, value: Double, basis: ObservationBasis = .metar) {
            self.place = place
            self.time = time
            self.value = value
            self.basis = basis
        }
    }

    /// How pairs are made and weighted.
    public struct Rules: Sendable {
        /// An observation stands for a valid time when it is at most this far from it, in seconds.
        public var matchWithinSeconds: Double = 1_800
        /// An observation stands for the issue time (persistence) when at most this far from it, in seconds.
        public var persistenceWithinSeconds: Double = 5_400
        /// A pair's weight halves every this many days of age (of its valid time).
        public var halfLifeDays: Double = 14
        /// An error within this is a hit (2 °C for temperature, as ForecastAdvisor counts).
        public var hitTolerance: Double = 2

        /// The default rules; `hitTolerance` for the field, as its quantity's spec declares it (2 when it declares none).
        public init(field: String) {
            hitTolerance = Quantity(rawValue: field)?.spec.hitTolerance ?? 2
        }
    }

    /// The sums of every (provider, field, bucket, basis) that has at least one pair, as of `now`: a forecast is checked
    /// against the observations of each basis at its place separately.
    public static func scores(field: String, forecasts: [Forecast], observations: [Observation], now: Date,
                              rules: Rules) -> [ScoreKey: ErrorSums] {
        var scores: [ScoreKey: ErrorSums] = [:]
        forEachPair(forecasts, observations, rules: rules, now: now) { forecast, truth, atIssue, bucket, weight in
            scores[ScoreKey(provider: forecast.provider, field: field, bucket: bucket, basis: truth.basis), default: ErrorSums()]
                .add(error: forecast.value - truth.value, weight: weight, hitTolerance: rules.hitTolerance,
                     persistenceError: atIssue.map { $0.value - truth.value })
        }
        return scores
    }

    /// The Brier sums of every (provider, bucket, basis) of probability forecasts of an event, as of `now`: forecasts'
    /// values are chances in percent (0–100), observations' values 1 when the event happened and 0 when not.
    public static func brierScores(field: String, forecasts: [Forecast], observations: [Observation], now: Date,
                                   rules: Rules) -> [ScoreKey: BrierSums] {
        var scores: [ScoreKey: BrierSums] = [:]
        forEachPair(forecasts, observations, rules: rules, now: now) { forecast, truth, _, bucket, weight in
            scores[ScoreKey(provider: forecast.provider, field: field, bucket: bucket, basis: truth.basis), default: BrierSums()]
                .add(probability: forecast.value / 100, occurred: truth.value >= 0.5, weight: weight)
        }
        return scores
    }

    /// Calls `body` with each forecast, the observation of each basis standing for its valid time, the one standing
    /// for its issue time (if any), its lead bucket and its weight.
    private static func forEachPair(_ forecasts: [Forecast], _ observations: [Observation], rules: Rules, now: Date,
                                    _ body: (Forecast, Observation, Observation?, LeadBucket, Double) -> Void) {
        struct Series: Hashable { let place: String; let basis: ObservationBasis }
        let grouped = Dictionary(grouping: observations) { Series(place: $0.place, basis: $0.basis) }.mapValues { $0.sorted { $0.time < $1.time } }
        let byPlace = Dictionary(grouping: grouped.keys, by: \.place).mapValues { $0.sorted { $0.basis < $1.basis }.compactMap { grouped[$0] } }
        let halfLife = rules.halfLifeDays * 86_400
        for forecast in forecasts {
            guard let bucket = LeadBucket(leadHours: forecast.validAt.timeIntervalSince(forecast.issuedAt) / 3_600),
                  let lists = byPlace[forecast.place] else { continue }
            let age = max(0, now.timeIntervalSince(forecast.validAt))
            let weight = halfLife > 0 ? pow(0.5, age / halfLife) : 1
            for list in lists {
                guard let truth = nearest(forecast.validAt, in: list, within: rules.matchWithinSeconds) else { continue }
                body(forecast, truth, nearest(forecast.issuedAt, in: list, within: rules.persistenceWithinSeconds), bucket, weight)
            }
        }
    }

    /// The observation nearest `time` in a list sorted by time, when one is within `seconds`.
    public static func nearest(_ time: Date, in sorted: [Observation], within seconds: Double) -> Observation? {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle].time < time { low = middle + 1 } else { high = middle }
        }
        let candidates = [low - 1, low].filter { sorted.indices.contains($0) }.map { sorted[$0] }
        guard let best = candidates.min(by: { abs($0.time.timeIntervalSince(time)) < abs($1.time.timeIntervalSince(time)) }),
              abs(best.time.timeIntervalSince(time)) <= seconds else { return nil }
        return best
    }
}
