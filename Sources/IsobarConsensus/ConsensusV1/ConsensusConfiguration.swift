import IsobarCore

/// The tunable constants of the v1 merge; the defaults are the documented ones.
public struct ConsensusConfiguration: Sendable, Equatable {
    /// Per hourly quantity, the smallest disagreement that counts (internal units): the outlier floor and the confidence scale.
    /// Defaults: each quantity's declared `spec.floor`.
    public var floors: [Quantity: Double] = Self.declaredFloors
    /// Per daily quantity, the same for days.
    public var dailyFloors: [DailyQuantity: Double] = Self.declaredDailyFloors
    /// `k` in the outlier rule `|x − median| > max(k × scale × MAD, floor)`.
    public var outlierMultiplier = 3.0
    /// The factor that makes the MAD estimate a normal standard deviation.
    public var madScale = 1.4826
    /// Total weight of the sources needed before the outlier rule applies (below it, disagreement is reported instead).
    public var outlierRuleMinimumWeight = 3.0
    /// A precipitation condition is implausible when every source gives at most this amount, mm…
    public var dryPrecipitationMM = 0.0
    /// …and every source that gives a chance gives less than this, %.
    public var lowPrecipitationProbabilityPercent = 30.0
    /// Hours of lead time over which confidence halves.
    public var leadTimeHalfLifeHours = 168.0
    /// Forecast steps further apart than this many hours are not interpolated between.
    public var maxInterpolationGapHours = 6.0
    /// A field with values from fewer providers than this is left out of the result (the `--min-providers` option).
    public var minimumSources = 1
    /// Where the IANA zone files are read from.
    public var zoneDirectory = ZoneInfo.defaultDirectory

    /// The defaults.
    public init() {}

    /// Each hourly quantity's declared floor: built once, shared by every configuration (a merge makes one).
    private static let declaredFloors = Dictionary(uniqueKeysWithValues: Quantity.allCases.map { ($0, $0.spec.floor) })
    /// Each daily quantity's declared floor, the same way.
    private static let declaredDailyFloors = Dictionary(uniqueKeysWithValues: DailyQuantity.allCases.map { ($0, $0.spec.floor) })

    /// The floor of an hourly quantity (1 when none is configured).
    public func floor(_ quantity: Quantity) -> Double { floors[quantity] ?? 1 }

    /// The floor of a daily quantity (1 when none is configured).
    public func floor(_ quantity: DailyQuantity) -> Double { dailyFloors[quantity] ?? 1 }
}
