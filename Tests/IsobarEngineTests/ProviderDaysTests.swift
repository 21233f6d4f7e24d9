import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import Testing

@Suite struct ProviderDaysTests {
    let newYork = Place(name: "New York", countryCode: "US", coordinate: Coordinate(latitude: 40.7143, longitude: -74.006)!,
                        timeZoneIdentifier: "America/New_York")

    /// 3-hour steps from 2026-11-28 12:00 UTC for four days, temperature = hours since the first step, 1 mm each.
    func threeHourly() -> WeatherReport {
        let start = Date(timeIntervalSince1970: 1_795_867_200)
        let steps = (0..<32).map { index -> WeatherSample in
            var sample = WeatherSample(time: start.addingTimeInterval(Double(index) * 3 * 3600), periodHours: 3)
            sample.temperatureC = Double(index * 3)
            sample.precipitationMM = 3
            sample.condition = index % 2 == 0 ? .cloudy : .rain
            return sample
        }
        return WeatherReport(providerID: "owm", place: newYork, fetchedAt: start, hourly: steps)
    }

    @Test func daysAreCompleteLocalDaysComputedFromTheHours() throws {
        let days = ProviderDays.days(of: threeHourly(), calendar: LocalCalendar.resolve(place: newYork, reports: []))
        // Local days start at 05:00 UTC; the steps cover 09:00 UTC Nov 28 (the first window) to 09:00 UTC Dec 2.
        #expect(days.map(\.date.description) == ["2026-11-29", "2026-11-30", "2026-12-01"])
        #expect(days.allSatisfy { $0.isDerived })
        let first = try #require(days.first)
        // Nov 29 local = 05:00 UTC Nov 29 … 05:00 UTC Nov 30: 17 h … 40 h after the first step (interpolated hourly).
        #expect(first.temperatureMinC == 17)
        #expect(first.temperatureMaxC == 40)
        // 3 mm per 3 hours is 1 mm an hour: 24 mm a day.
        #expect(first.precipitationMM == 24)
        // Rain and cloud share the day evenly: the tie goes to rain.
        #expect(first.condition == .rain)
    }

    @Test func aProvidersOwnDaysAreKept() {
        var report = threeHourly()
        report.daily = [DailyPoint(date: LocalDate(daysSinceEpoch: 20_785))]
        #expect(ProviderDays.days(of: report, calendar: LocalCalendar(fixedOffsetSeconds: 0)) == report.daily)
    }

    @Test func votesGoToTheMajorityAndTiesToTheMoreSevere() {
        #expect(Vote.winner([.clear, .clear, .rain]) == .clear)
        #expect(Vote.winner([.clear, .rain]) == .rain)
        #expect(Vote.winner([.snow, .rain, .snow, .rain, .fog]) == .snow)
        #expect(Vote.winner([]) == nil)
    }
}
