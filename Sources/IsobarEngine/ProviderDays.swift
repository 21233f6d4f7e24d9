import FoundationEssentials
import IsobarCore

/// One provider's days: its own where it gives them, else computed from its hours in the place's local calendar.
public enum ProviderDays {
    /// The report's days in `calendar` (computed days are complete local days, marked derived).
    public static func days(of report: WeatherReport, calendar: LocalCalendar) -> [DailyPoint] {
        guard report.daily.isEmpty else { return report.daily }
        guard let first = report.hourly.first?.time, let last = report.hourly.last?.time else { return [] }
        let series = AlignedSeries(provider: report.providerID, steps: report.hourly)
        var days: [DailyPoint] = []
        var date = calendar.localDate(of: first.addingTimeInterval(-3 * 3600))
        let end = calendar.localDate(of: last)
        while date <= end {
            if let day = series.derivedDay(date, interval: calendar.interval(of: date)) { days.append(day) }
            date = LocalDate(daysSinceEpoch: date.daysSinceEpoch + 1)
        }
        return days
    }
}
