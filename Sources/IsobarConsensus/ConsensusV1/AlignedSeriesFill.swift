import FoundationEssentials
import IsobarCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AlignedSeries {
    /// Wind direction interpolated as a vector between consecutive steps that give one.
    mutating func fillDirection(_ steps: UnsafeBufferPointer<WeatherSample>, seconds: [Double], maxGap: Double) {
        let slot = Quantity.windDirection.consensusSlot
        let indexes = steps.indices.filter { steps[$0].windDirectionDeg != nil }
        for (position, index) in indexes.enumerated() {
            let direction = steps[index].windDirectionDeg!
            if let hour = hours(from: seconds[index], through: seconds[index])?.lowerBound {
                set(slot, hour, FieldMerge.wrap(direction), interpolated: false)
            }
            guard position + 1 < indexes.count else { continue }
            let next = indexes[position + 1]
            let (time, nextTime) = (seconds[index], seconds[next])
            guard nextTime - time <= maxGap, let range = hours(from: time, through: nextTime) else { continue }
            // Steps an hour apart have no hour between them: no vectors to work out.
            guard range.contains(where: { Double($0) * 3600 > time && Double($0) * 3600 < nextTime }) else { continue }
            let speeds = (steps[index].windSpeedMS ?? 0, steps[next].windSpeedMS ?? 0)
            let scale = speeds.0 > 0 && speeds.1 > 0 ? speeds : (1, 1)
            let start = Self.vector(direction, length: scale.0)
            let end = Self.vector(steps[next].windDirectionDeg!, length: scale.1)
            for hour in range where Double(hour) * 3600 > time && Double(hour) * 3600 < nextTime {
                let fraction = (Double(hour) * 3600 - time) / (nextTime - time)
                let x = start.x + fraction * (end.x - start.x)
                let y = start.y + fraction * (end.y - start.y)
                let value: Double
                if (x * x + y * y).squareRoot() < 1e-9 {
                    value = fraction < 0.5 ? direction : steps[next].windDirectionDeg!  // Opposite and equal: the nearer step's.
                } else {
                    value = atan2(y, x) * 180 / .pi
                }
                set(slot, hour, FieldMerge.wrap(value), interpolated: true)
            }
        }
    }

    /// Each step's amount spread evenly over its period and summed per grid hour; only hours fully covered keep an amount.
    mutating func fillPrecipitation(_ steps: UnsafeBufferPointer<WeatherSample>, seconds: [Double]) {
        let slot = Quantity.precipitationRate.consensusSlot
        var amounts = [Double](repeating: 0, count: count)
        var covered = [Double](repeating: 0, count: count)
        var split = [Bool](repeating: false, count: count)
        for index in steps.indices {
            guard let amount = steps[index].precipitationMM, steps[index].periodHours > 0 else { continue }
            let end = seconds[index]
            let start = end - steps[index].periodHours * 3600
            guard let range = hours(from: start + 1e-6, through: end + 3600 - 1e-6) else { continue }
            for hour in range {
                let overlap = min(end, Double(hour) * 3600) - max(start, Double(hour - 1) * 3600)
                guard overlap > 0 else { continue }
                amounts[hour - firstHour] += amount * overlap / (end - start)
                covered[hour - firstHour] += overlap
                if overlap != 3600 || end - start != 3600 { split[hour - firstHour] = true }
            }
        }
        for index in 0..<count where covered[index] >= 3600 - 1e-6 {
            set(slot, firstHour + index, amounts[index], interpolated: split[index])
        }
    }

    /// Precipitation probability and condition held over each step's period, chosen by the hour's middle.
    mutating func fillHeld(_ steps: UnsafeBufferPointer<WeatherSample>, seconds: [Double]) {
        let slot = Quantity.precipitationProbability.consensusSlot
        for index in steps.indices where steps[index].condition != nil || steps[index].precipitationProbabilityPercent != nil {
            let end = seconds[index]
            let period = steps[index].periodHours
            let start = end - max(period, 0) * 3600
            // Hours ending at h whose middle h − 30 min lies in (start, end].
            guard let range = hours(from: start + 1800 + 1e-6, through: end + 1800) else { continue }
            let probability = steps[index].precipitationProbabilityPercent
            let condition = steps[index].condition
            for hour in range {
                let isHeld = !(period == 1 && Double(hour) * 3600 == end)
                if let probability { set(slot, hour, probability, interpolated: isHeld) }
                if let condition {
                    conditions[hour - firstHour] = condition
                    conditionHeld[hour - firstHour] = isHeld
                }
            }
        }
    }

    private static func vector(_ degrees: Double, length: Double) -> (x: Double, y: Double) {
        let radians = degrees * .pi / 180
        return (length * cos(radians), length * sin(radians))
    }
}
