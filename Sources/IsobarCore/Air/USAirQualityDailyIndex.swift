import FoundationEssentials

/// The US AQI of a day on the averaging periods the EPA defines its breakpoints for (EPA-454/B-24-002): PM2.5 and PM10 on
/// the 24-hour mean, O₃ and CO on the highest 8-hour running mean, NO₂ and SO₂ on the highest hour.
///
/// A 24-hour mean needs 18 of the day's hours (75 %, as the EPA asks of a valid day); an 8-hour mean needs 6 of its 8 hours
/// and starts at one of the day's hours (running on into the next day's hours when they are there). A pollutant without
/// enough hours is left out of the day's index; a day with none is without an index.
public enum USAirQualityDailyIndex {
    /// How a pollutant's hours are averaged for the day.
    public enum Averaging: Sendable, Equatable {
        /// The mean of the day's hours.
        case mean24Hours
        /// The highest mean of 8 consecutive hours starting in the day.
        case highest8HourMean
        /// The highest hour.
        case highestHour

        /// `24-hour mean`, `highest 8-hour mean`, `highest hour`.
        public var name: String {
            switch self {
            case .mean24Hours: "24-hour mean"
            case .highest8HourMean: "highest 8-hour mean"
            case .highestHour: "highest hour"
            }
        }
    }

    /// Hours a 24-hour mean needs.
    public static let minimumHoursOfDay = 18
    /// Hours of 8 an 8-hour mean needs.
    public static let minimumHoursOf8 = 6

    /// How the EPA averages `pollutant` for its breakpoints; nil for a pollutant without US AQI breakpoints.
    public static func averaging(of pollutant: Quantity) -> Averaging? {
        switch pollutant {
        case .pm25, .pm10: .mean24Hours
        case .ozone, .carbonMonoxide: .highest8HourMean
        case .nitrogenDioxide, .sulphurDioxide: .highestHour
        default: nil
        }
    }

    /// The day's index from hourly concentrations (µg/m³) in time order, one hour apart: `hours[day]` are the day's hours,
    /// the hours after them serve the 8-hour means that run past midnight. Nil when no pollutant has enough hours.
    public static func index(_ hours: [(Quantity) -> Double?], day: Range<Int>) -> AirIndexValue? {
        var worst: AirIndexValue?
        for pollutant in AirIndexScale.usAQI.pollutants {
            guard let averaging = averaging(of: pollutant), let concentration = average(pollutant, averaging, hours, day: day),
                  let value = AirIndexScale.usAQI.subIndex(pollutant, concentration: concentration) else { continue }
            if worst.map({ value.value > $0.value }) ?? true { worst = value }
        }
        return worst
    }

    /// The concentration the day's sub-index of `pollutant` is computed from, or nil without enough hours.
    public static func average(_ pollutant: Quantity, _ averaging: Averaging, _ hours: [(Quantity) -> Double?], day: Range<Int>) -> Double? {
        let clamped = day.clamped(to: hours.indices)
        switch averaging {
        case .mean24Hours:
            let values = clamped.compactMap { hours[$0](pollutant) }
            guard values.count >= minimumHoursOfDay else { return nil }
            return values.reduce(0, +) / Double(values.count)
        case .highestHour:
            return clamped.compactMap { hours[$0](pollutant) }.max()
        case .highest8HourMean:
            let means = clamped.compactMap { start -> Double? in
                let values = (start..<min(start + 8, hours.count)).compactMap { hours[$0](pollutant) }
                guard values.count >= minimumHoursOf8 else { return nil }
                return values.reduce(0, +) / Double(values.count)
            }
            return means.max()
        }
    }
}
