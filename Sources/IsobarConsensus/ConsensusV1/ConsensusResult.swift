import FoundationEssentials
import IsobarCore

/// Merged values at one instant: an hour of the UTC grid (values for the hour ending at `time`), or current conditions.
public struct ConsensusHour: Sendable, Equatable {
    /// The instant (UTC): the end of the hour, or for current conditions the latest observation time.
    public var time: Date
    /// The zone's UTC offset at `time`, for showing it in local time.
    public var utcOffsetSeconds: Int
    /// Hours from the reference time to `time`, 0 when not ahead.
    public var leadHours: Double
    /// Merged quantities by `Quantity.consensusSlot`; precipitation is `precipitationRate`, mm in the hour (mm/h).
    var fields: [MergedField?]
    /// The merged condition, when any provider gave one.
    public var condition: MergedConditionV1?
    /// Mean confidence of the fields and the condition, nil when nothing was merged.
    public var confidence: Double?

    /// Creates an hour from merged fields keyed by quantity.
    public init(time: Date, utcOffsetSeconds: Int, leadHours: Double, values: [Quantity: MergedField],
                condition: MergedConditionV1?, confidence: Double?) {
        var fields = [MergedField?](repeating: nil, count: QuantitySlot.count)
        for (quantity, field) in values { fields[quantity.consensusSlot] = field }
        self.init(time: time, utcOffsetSeconds: utcOffsetSeconds, leadHours: leadHours, fields: fields, condition: condition, confidence: confidence)
    }

    init(time: Date, utcOffsetSeconds: Int, leadHours: Double, fields: [MergedField?], condition: MergedConditionV1?, confidence: Double?) {
        self.time = time
        self.utcOffsetSeconds = utcOffsetSeconds
        self.leadHours = leadHours
        self.fields = fields
        self.condition = condition
        self.confidence = confidence
    }

    /// The merged value of a quantity, when any provider gave it.
    public subscript(quantity: Quantity) -> MergedField? {
        get { fields[quantity.consensusSlot] }
        set { fields[quantity.consensusSlot] = newValue }
    }

    /// Every merged quantity.
    public var values: [Quantity: MergedField] {
        var result: [Quantity: MergedField] = [:]
        for quantity in Quantity.allCases { result[quantity] = fields[quantity.consensusSlot] }
        return result
    }
}

/// Merged values for one local day.
public struct ConsensusDayV1: Sendable, Equatable {
    /// The local day.
    public var date: LocalDate
    /// Its first instant.
    public var start: Date
    /// The next day's first instant (23, 24 or 25 hours later).
    public var end: Date
    /// The zone's UTC offset at `start`.
    public var utcOffsetSeconds: Int
    /// Hours from the reference time to the day's middle, 0 when not ahead.
    public var leadHours: Double
    /// Merged daily quantities.
    public var values: [DailyQuantity: MergedField]
    /// The merged condition.
    public var condition: MergedConditionV1?
    /// Mean confidence of the fields and the condition, nil when nothing was merged.
    public var confidence: Double?

    /// Creates a day.
    public init(date: LocalDate, start: Date, end: Date, utcOffsetSeconds: Int, leadHours: Double, values: [DailyQuantity: MergedField],
                condition: MergedConditionV1?, confidence: Double?) {
        self.date = date
        self.start = start
        self.end = end
        self.utcOffsetSeconds = utcOffsetSeconds
        self.leadHours = leadHours
        self.values = values
        self.condition = condition
        self.confidence = confidence
    }

    /// Length of the day in hours.
    public var hours: Double { end.timeIntervalSince(start) / 3600 }

    /// The moon's phase at the day's middle, computed locally (see `MoonPhase`).
    public var moonPhase: MoonPhase { MoonPhase(at: start.addingTimeInterval(end.timeIntervalSince(start) / 2)) }

    /// The merged value of a daily quantity, when any provider gave it.
    public subscript(quantity: DailyQuantity) -> MergedField? { values[quantity] }
}

/// The v1 merge of every provider's answer for one place.
public struct ConsensusResult: Sendable, Equatable {
    /// The place.
    public var place: Place
    /// Providers merged (positive weight), in input order.
    public var providers: [String]
    /// Providers left out because their weight is 0, negative or not a number.
    public var excluded: [String]
    /// The weight each merged provider had, as configured.
    public var weights: [String: Double]
    /// The family (shared upstream) of each merged source, by id.
    public var families: [String: String] = [:]
    /// The weight each merged source had in the merge: its configured weight times its family's share (see `FamilyWeight`).
    public var mergeWeights: [String: Double] = [:]
    /// How the v2 merge weighted the values, when weights are learned (`"weights": "auto"`); nil for the v1 merge.
    public var weighting: Weighting?
    /// Where each source's learned skill came from, by source id, when weights are learned; empty for the v1 merge.
    public var learnedBasis: [String: LearnedBasis] = [:]
    /// The reference time lead times are counted from.
    public var referenceTime: Date
    /// The zone local days and times are in.
    public var zone: DayZone
    /// Why the place's named zone was not used, when the merge fell back to a fixed offset.
    public var zoneFallbackReason: String?
    /// Merged current conditions.
    public var current: ConsensusHour?
    /// Merged hours on the UTC hour grid, in time order.
    public var hourly: [ConsensusHour]
    /// Merged local days, in order.
    public var daily: [ConsensusDayV1]

    /// Creates a result (for tests and renderers; results come from `ConsensusV1.merge`).
    public init(place: Place, providers: [String], excluded: [String] = [], weights: [String: Double], referenceTime: Date, zone: DayZone,
                zoneFallbackReason: String? = nil, current: ConsensusHour?, hourly: [ConsensusHour], daily: [ConsensusDayV1]) {
        self.place = place
        self.providers = providers
        self.excluded = excluded
        self.weights = weights
        self.referenceTime = referenceTime
        self.zone = zone
        self.zoneFallbackReason = zoneFallbackReason
        self.current = current
        self.hourly = hourly
        self.daily = daily
    }
}
