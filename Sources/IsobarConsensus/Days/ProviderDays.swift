import FoundationEssentials
import IsobarCore

/// One provider's days: its own where it gives them, else computed from its hours in the place's local calendar.
public enum ProviderDays {
    /// The report's days in `calendar` (computed days are complete local days, marked derived).
    public static func days(of report: WeatherReport, calendar: LocalCalendar) -> [DailyPoint] {
        // Days that hold only the sun's times (OpenWeatherMap's today) complete the days computed from steps.
        guard report.daily.allSatisfy(\.holdsOnlySunTimes) else { return report.daily }
        guard let first = report.hourly.first?.time, let last = report.hourly.last?.time else { return report.daily }
        let series = AlignedSeries(provider: report.providerID, steps: report.hourly)
        var days: [DailyPoint] = []
        var date = calendar.localDate(of: first.addingTimeInterval(-3 * 3600))
        let end = calendar.localDate(of: last)
        while date <= end {
            if let day = series.derivedDay(date, interval: calendar.interval(of: date)) { days.append(day) }
            date = LocalDate(daysSinceEpoch: date.daysSinceEpoch + 1)
        }
        for sun in report.daily {
            guard let index = days.firstIndex(where: { $0.date == sun.date }) else { continue }
            for quantity in [DailyQuantity.sunrise, .sunset, .daylightDuration] where sun[quantity] != nil { days[index][quantity] = sun[quantity] }
            days[index].derivedQuantities.formUnion(sun.derivedQuantities)
        }
        return days
    }

    /// Where the report's forecast ends (its last step, or the end of its last day) when that is before the local day
    /// that holds `reference`; nil when it reaches that day or has no forecast.
    public static func forecastEnd(of report: WeatherReport, before reference: Date, calendar: LocalCalendar) -> Date? {
        let lastStep = report.hourly.last?.time
        let lastDay = report.daily.last.map { calendar.interval(of: $0.date).upperBound }
        guard let end = [lastStep, lastDay].compactMap({ $0 }).max(),
              end < calendar.interval(of: calendar.localDate(of: reference)).lowerBound else { return nil }
        return end
    }
}

extension DailyPoint {
    /// True when the day gives the sun's times and nothing else.
    var holdsOnlySunTimes: Bool {
        (sunrise != nil || sunset != nil) && condition == nil && DailyQuantity.allCases.allSatisfy { self[$0] == nil || [.sunrise, .sunset, .daylightDuration].contains($0) }
    }
}
