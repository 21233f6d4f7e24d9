#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// Which provider, field and lead time a score is about.
public struct ScoreKey: Sendable, Hashable, Comparable {
    /// The provider's id.
    public var provider: String
    /// The quantity, e.g. `temperature`.
    public var field: String
    /// The lead-time bucket.
    public var bucket: LeadBucket

    /// Creates a key.
    public init(provider: String, field: String, bucket: LeadBucket) {
        self.provider = provider
        self.field = field
        self.bucket = bucket
    }

    public static func < (lhs: ScoreKey, rhs: ScoreKey) -> Bool {
        (lhs.field, lhs.provider, lhs.bucket) < (rhs.field, rhs.provider, rhs.bucket)
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
        /// The value, in the model's unit.
        public var value: Double

        /// Creates an observed value.
        public init(place: String, time: Date, value: Double) {
            self.place = place
            self.time = time
            self.value = value
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

        /// The default rules; `hitTolerance` for the field.
        public init(field: String) {
            hitTolerance = Self.hitTolerances[field] ?? 2
        }

        /// Hit tolerances by field, in the model's units.
        public static let hitTolerances: [String: Double] = [
            "temperature": 2, "apparent_temperature": 2, "humidity": 10, "pressure": 2, "wind_speed": 2, "wind_gust": 3,
            "cloud_cover": 20, "visibility": 2_000,
        ]
    }

    /// The sums of every (provider, field, bucket) that has at least one pair, as of `now`.
    public static func scores(field: String, forecasts: [Forecast], observations: [Observation], now: Date,
                              rules: Rules) -> [ScoreKey: ErrorSums] {
        let observed = Dictionary(grouping: observations, by: \.place).mapValues { $0.sorted { $0.time < $1.time } }
        var scores: [ScoreKey: ErrorSums] = [:]
        let halfLife = rules.halfLifeDays * 86_400
        for forecast in forecasts {
            guard let bucket = LeadBucket(leadHours: forecast.validAt.timeIntervalSince(forecast.issuedAt) / 3_600),
                  let list = observed[forecast.place],
                  let truth = nearest(forecast.validAt, in: list, within: rules.matchWithinSeconds) else { continue }
            let age = max(0, now.timeIntervalSince(forecast.validAt))
            let weight = halfLife > 0 ? pow(0.5, age / halfLife) : 1
            let atIssue = nearest(forecast.issuedAt, in: list, within: rules.persistenceWithinSeconds)
            scores[ScoreKey(provider: forecast.provider, field: field, bucket: bucket), default: ErrorSums()]
                .add(error: forecast.value - truth.value, weight: weight, hitTolerance: rules.hitTolerance,
                     persistenceError: atIssue.map { $0.value - truth.value })
        }
        return scores
    }

    /// The observation nearest `time` in a list sorted by time, when one is within `seconds`.
    static func nearest(_ time: Date, in sorted: [Observation], within seconds: Double) -> Observation? {
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
