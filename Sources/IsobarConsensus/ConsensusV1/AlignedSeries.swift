import FoundationEssentials
import IsobarCore

/// One provider's forecast steps put on the UTC hour grid (hours ending at whole UTC hours).
///
/// - Continuous quantities (those declared `.linear`: temperature, apparent temperature, humidity, pressure, wind speed,
///   gusts, cloud cover, visibility, dew point, UV index) are instantaneous values at a step's time, interpolated linearly between consecutive steps at
///   most `maxGapHours` apart; never extrapolated.
/// - Wind direction is interpolated as a vector (speed × unit vector when both steps give a speed above 0,
///   unit vectors otherwise).
/// - Precipitation: a step's amount is spread evenly over its period `(time − periodHours, time]`, and each grid
///   hour gets the amount falling inside it (a 3-hour step ending at T with 3 mm gives 1 mm to the hours ending
///   T − 2 h, T − 1 h and T). An hour has an amount only when steps with amounts cover all of it. It is stored as
///   `precipitationRate`: mm in the hour, which is mm/h.
/// - Precipitation probability and condition are held: the hour ending at H takes the value of the step whose
///   period holds the hour's middle, H − 30 min.
///
/// A value not given by a step for exactly that hour is marked interpolated.
public struct AlignedSeries: Sendable, Equatable {
    /// A value on the grid and whether it was interpolated, held or split rather than given.
    public struct Point: Sendable, Equatable {
        /// The value in the quantity's internal unit.
        public var value: Double
        /// True when not given by a one-hour step ending at this hour.
        public var isInterpolated: Bool

        /// Creates a point.
        public init(value: Double, isInterpolated: Bool) {
            self.value = value
            self.isInterpolated = isInterpolated
        }
    }

    /// The provider.
    public let provider: String
    /// Hours since 1970 of the first grid hour (its end); the series covers `firstHour ..< firstHour + count`.
    public let firstHour: Int
    /// Number of grid hours covered.
    public let count: Int
    /// The value of slot `s` at hour index `i` is at `s × count + i`: NaN when absent (one contiguous block).
    var columns: [Double]
    /// Interpolated, held or split, indexed as `columns`.
    var interpolated: [Bool]
    /// Per hour: the held condition.
    var conditions: [Condition?]
    /// Per hour: true when the condition was held over a longer step.
    var conditionHeld: [Bool]
    /// Quantities some step computed from others rather than was given (dew point from temperature and humidity).
    public private(set) var derivedQuantities: Set<Quantity> = []
    /// The same as bits by quantity slot, for the merge's inner loop.
    private(set) var derivedSlots: UInt32 = 0

    /// Aligns a provider's steps (any order; a later duplicate of an instant wins).
    public init(provider: String, steps: [WeatherSample], maxGapHours: Double = 6) {
        self.provider = provider
        let sorted = Self.inTimeOrder(steps)
        // Fields are read through a buffer pointer, so no step is copied whole.
        var derived: UInt32 = 0
        var seconds: [Double] = []
        seconds.reserveCapacity(sorted.count)
        var longestPeriod = 0.0
        sorted.withUnsafeBufferPointer { steps in
            for index in steps.indices {
                if !steps[index].derivedQuantities.isEmpty {
                    for quantity in steps[index].derivedQuantities { derived |= 1 << UInt32(quantity.consensusSlot) }
                }
                seconds.append(steps[index].time.timeIntervalSince1970)
                longestPeriod = Swift.max(longestPeriod, steps[index].periodHours)
            }
        }
        derivedSlots = derived
        if derived != 0 { derivedQuantities = Set(QuantitySlot.all.filter { derived & (1 << UInt32($0.consensusSlot)) != 0 }) }
        guard let first = seconds.first, let last = seconds.last else {
            (firstHour, count, columns, interpolated, conditions, conditionHeld) = (0, 0, [], [], [], [])
            return
        }
        let earliest = first - longestPeriod * 3600
        firstHour = Int((earliest / 3600).rounded(.down))
        count = max(0, Int((last / 3600).rounded(.up)) + 1 - firstHour)
        columns = Array(repeating: .nan, count: count * QuantitySlot.count)
        interpolated = Array(repeating: false, count: count * QuantitySlot.count)
        conditions = Array(repeating: nil, count: count)
        conditionHeld = Array(repeating: false, count: count)
        // Each step's hour bounds, worked out once for every quantity: ⌈t / 1 h⌉ and ⌊t / 1 h⌋, as `hours(from:through:)` does.
        let ceilings = seconds.map { Int(($0 / 3600).rounded(.up)) }
        let floors = seconds.map { Int(($0 / 3600).rounded(.down)) }
        sorted.withUnsafeBufferPointer { steps in
            for quantity in QuantitySlot.continuous {
                fillLinear(steps, seconds: seconds, ceilings: ceilings, floors: floors, quantity: quantity, maxGap: maxGapHours * 3600)
            }
            fillDirection(steps, seconds: seconds, maxGap: maxGapHours * 3600)
            fillPrecipitation(steps, seconds: seconds)
            fillHeld(steps, seconds: seconds)
        }
    }

    /// The steps in time order, a later duplicate of an instant replacing the earlier one, and none more than
    /// `maxSpanHours` after the first (so one absurd timestamp cannot make the grid enormous).
    private static func inTimeOrder(_ steps: [WeatherSample]) -> [WeatherSample] {
        // Steps outside 1970…9999 or with absurd periods cannot be placed on the grid.
        func isPlaceable(_ step: WeatherSample) -> Bool {
            PlausibleRange.unixSeconds.contains(step.time.timeIntervalSince1970) && step.periodHours.isFinite && (0...48).contains(step.periodHours)
        }
        let placeable = steps.allSatisfy(isPlaceable) ? steps : steps.filter(isPlaceable)
        var sorted = placeable
        let inOrder = placeable.withUnsafeBufferPointer { steps in steps.indices.dropFirst().allSatisfy { steps[$0 - 1].time < steps[$0].time } }
        if !inOrder {
            var byTime: [Date: WeatherSample] = [:]
            for step in placeable { byTime[step.time] = step }
            sorted = byTime.values.sorted { $0.time < $1.time }
        }
        guard let first = sorted.first, sorted[sorted.count - 1].time.timeIntervalSince(first.time) > maxSpanHours * 3600 else { return sorted }
        return sorted.filter { $0.time.timeIntervalSince(first.time) <= maxSpanHours * 3600 }
    }

    /// The longest stretch of steps aligned: 400 days.
    public static let maxSpanHours = 400.0 * 24

    /// The instant a grid hour ends.
    public func time(ofHour hour: Int) -> Date { Date(timeIntervalSince1970: Double(hour) * 3600) }

    /// The value of a quantity for the hour ending at `hour` (hours since 1970), when the series has one.
    public func point(_ quantity: Quantity, hour: Int) -> Point? {
        let index = hour - firstHour
        guard index >= 0, index < count else { return nil }
        let position = quantity.consensusSlot * count + index
        let value = columns[position]
        return value.isNaN ? nil : Point(value: value, isInterpolated: interpolated[position])
    }

    /// The value of a quantity for the hour ending at `time`, when `time` is a whole UTC hour the series covers.
    public func point(_ quantity: Quantity, at time: Date) -> Point? {
        guard let hour = Self.hour(of: time) else { return nil }
        return point(quantity, hour: hour)
    }

    /// The condition for the hour ending at `hour` and whether it was held over a longer step.
    public func condition(hour: Int) -> (condition: Condition, isHeld: Bool)? {
        let index = hour - firstHour
        guard index >= 0, index < count, let condition = conditions[index] else { return nil }
        return (condition, conditionHeld[index])
    }

    /// Hours since 1970 of a whole UTC hour; nil for other instants.
    static func hour(of time: Date) -> Int? {
        let seconds = time.timeIntervalSince1970
        return seconds.truncatingRemainder(dividingBy: 3600) == 0 ? Int(seconds / 3600) : nil
    }

    /// Grid hours `h` with `lower <= h × 3600 <= upper`, clipped to the series.
    func hours(from lower: Double, through upper: Double) -> ClosedRange<Int>? {
        let start = max(firstHour, Int((lower / 3600).rounded(.up)))
        let end = min(firstHour + count - 1, Int((upper / 3600).rounded(.down)))
        return start <= end ? start...end : nil
    }

    mutating func set(_ slot: Int, _ hour: Int, _ value: Double, interpolated isInterpolated: Bool) {
        columns[slot * count + hour - firstHour] = value
        interpolated[slot * count + hour - firstHour] = isInterpolated
    }

    /// A linear quantity at each step that gives it, and between consecutive such steps at most `maxGap` seconds apart;
    /// `ceilings` and `floors` are each step's time in hours rounded up and down.
    private mutating func fillLinear(
        _ steps: UnsafeBufferPointer<WeatherSample>, seconds: [Double], ceilings: [Int], floors: [Int], quantity: Quantity, maxGap: Double
    ) {
        let first = firstHour
        let lastHour = firstHour + count - 1
        let base = quantity.consensusSlot * count - first
        columns.withUnsafeMutableBufferPointer { values in
            interpolated.withUnsafeMutableBufferPointer { flags in
                var previous = -1
                var previousValue = 0.0
                for index in steps.indices {
                    guard let value = steps[index][quantity] else { continue }
                    let time = seconds[index]
                    if previous >= 0, time - seconds[previous] <= maxGap {
                        // The hours strictly between the two steps (as `hours(from:through:)` clips them).
                        let lastTime = seconds[previous]
                        let start = Swift.max(first, ceilings[previous])
                        let end = Swift.min(lastHour, floors[index])
                        if start <= end {
                            for hour in start...end where Double(hour) * 3600 > lastTime && Double(hour) * 3600 < time {
                                let fraction = (Double(hour) * 3600 - lastTime) / (time - lastTime)
                                values[base + hour] = previousValue + fraction * (value - previousValue)
                                flags[base + hour] = true
                            }
                        }
                    }
                    // The step's own hour, when it ends at a whole hour the series covers.
                    let own = Swift.max(first, ceilings[index])
                    if own <= Swift.min(lastHour, floors[index]) {
                        values[base + own] = value
                        flags[base + own] = false
                    }
                    previous = index
                    previousValue = value
                }
            }
        }
    }
}
