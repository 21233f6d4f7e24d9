import FoundationEssentials
import IsobarCore
import IsobarTestKit
#if canImport(Glibc)
import Glibc
#endif

/// The truth and every source's forecasts of one simulated run, drawn once from a seed.
struct SimulatedWorld {
    /// The first midnight (UTC) of the run.
    let start: Date
    /// The true temperature of every hour from `start`, °C.
    let truth: [Double]
    /// `forecasts[day][source][lead]`: the forecast issued at midnight of `day` for `lead` hours later, °C.
    let forecasts: [[[Double]]]

    /// Draws a world for a scenario: a daily cycle with a slowly wandering anomaly as the truth, and each source's
    /// forecasts as the truth plus its bias, its own noise, the shared error when it carries one, and its spikes.
    init(_ scenario: SimulationScenario, days: Int, forecastHours: Int, seed: UInt64, start: Date) {
        self.start = start
        var random = SeededGenerator(seed: seed)
        var truth: [Double] = []
        var anomaly = 0.0
        for hour in 0..<(days * 24 + forecastHours) {
            anomaly = 0.97 * anomaly + random.normal(sigma: 0.5)
            truth.append(4 + 6 * sin(2 * .pi * Double(hour % 24 - 9) / 24) + anomaly)
        }
        var forecasts: [[[Double]]] = []
        let lastHour = Double(max(1, days * 24 + forecastHours - 1))
        for day in 0..<days {
            let shared = (0..<forecastHours).map { _ in random.normal(sigma: scenario.sharedSigma) }
            forecasts.append(scenario.sources.map { source in
                let sigma = day >= days - source.breakDays ? source.sigma * source.breakFactor : source.sigma
                return (0..<forecastHours).map { lead in
                    let drift = source.drift * Double(day * 24 + lead) / lastHour
                    var value = truth[day * 24 + lead] + source.bias + drift + random.normal(sigma: sigma)
                    if source.sharesError { value += shared[lead] }
                    if source.spikeChance > 0, Double.random(in: 0..<1, using: &random) < source.spikeChance {
                        value += Bool.random(using: &random) ? source.spikeSize : -source.spikeSize
                    }
                    return value
                }
            })
        }
        self.truth = truth
        self.forecasts = forecasts
    }

    /// The instant of an hour counted from `start`.
    func time(_ hour: Int) -> Date { start.addingTimeInterval(Double(hour) * 3_600) }

    /// The Open-Meteo-shaped answer of one source for the forecast issued on `day`: hourly temperatures in UTC.
    func body(day: Int, source: Int) -> String {
        let values = forecasts[day][source]
        let times = values.indices.map { "\"\(Self.localMinute(time(day * 24 + $0)))\"" }
        let numbers = values.map { JSONOutput.format(($0 * 100).rounded() / 100) }
        return """
            {"latitude":53.9,"longitude":27.57,"utc_offset_seconds":0,"timezone":"GMT",\
            "hourly_units":{"time":"iso8601","temperature_2m":"°C"},\
            "hourly":{"time":[\(times.joined(separator: ","))],"temperature_2m":[\(numbers.joined(separator: ","))]}}
            """
    }

    /// `yyyy-MM-ddTHH:mm` of an instant in UTC.
    static func localMinute(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let hour = (seconds - days * 86_400) / 3_600
        // Days since 1970-01-01 to a civil date (H. Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(hour)):00"
    }
}
