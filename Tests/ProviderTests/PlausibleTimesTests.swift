import FoundationEssentials
import IsobarCore
import Testing

@Suite("Times outside a sane window of the answer's moment are left out")
struct PlausibleTimesTests {
    let now = Fixtures.recordedAt
    let place = Place(name: "Minsk", coordinate: Coordinate(latitude: 53.9, longitude: 27.57)!)

    func hours(_ offsets: [Double]) -> [WeatherSample] {
        offsets.map { offset in
            var sample = WeatherSample(time: now.addingTimeInterval(offset * 3_600), periodHours: 1)
            sample.temperatureC = offset.truncatingRemainder(dividingBy: 50)
            return sample
        }
    }

    @Test("steps years away from now are dropped with one warning counting them; the others stay")
    func farSteps() {
        let report = WeatherReport(providerID: "x", place: place, fetchedAt: now,
                                   hourly: hours([-24 * 365 * 30, 0, 1, 24 * 365, 24 * 400])).validated(now: now)
        #expect(report.hourly.map(\.temperatureC) == [0, 1])
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.path == "hourly[0].time")
        #expect(report.warnings.first?.reason.contains("3 of them") == true)
    }

    @Test("current conditions observed days ago or hours ahead are dropped", arguments: [-3.0 * 24, 7.0])
    func implausibleCurrent(offsetHours: Double) {
        let current = WeatherSample(time: now.addingTimeInterval(offsetHours * 3_600), periodHours: 0.25)
        let report = WeatherReport(providerID: "x", place: place, fetchedAt: now, current: current,
                                   hourly: hours([0, 1])).validated(now: now)
        #expect(report.current == nil)
        #expect(report.hourly.count == 2)
        #expect(report.warnings.map(\.path) == ["current.time"])
    }

    @Test("current conditions an hour old and a forecast 16 days long are kept")
    func plausibleKept() {
        let current = WeatherSample(time: now.addingTimeInterval(-3_600), periodHours: 0.25)
        let report = WeatherReport(providerID: "x", place: place, fetchedAt: now, current: current,
                                   hourly: hours(Array(stride(from: -48.0, through: 16 * 24, by: 1)))).validated(now: now)
        #expect(report.current != nil)
        #expect(report.hourly.count == 16 * 24 + 49)
        #expect(report.warnings.isEmpty)
    }

    @Test("a day far away is dropped; a sunrise far from its day is left out, the day kept")
    func days() throws {
        let today = LocalDate(now, utcOffsetSeconds: 0)
        var good = DailyPoint(date: today)
        good.sunrise = now.addingTimeInterval(-86_400 * 10)
        good.sunset = now.addingTimeInterval(3_600)
        let far = DailyPoint(date: LocalDate(daysSinceEpoch: today.daysSinceEpoch + 400))
        let report = WeatherReport(providerID: "x", place: place, fetchedAt: now, daily: [good, far]).validated(now: now)
        #expect(report.daily.count == 1)
        #expect(report.daily.first?.sunrise == nil)
        #expect(report.daily.first?.sunset != nil)
        #expect(report.warnings.map(\.path) == ["daily[1].date", "daily[0].sunrise"])
    }

    @Test("a replay is judged against the moment it was recorded, not today")
    func replayUsesRecording() {
        let years = 3.0 * 365 * 86_400
        let report = WeatherReport(providerID: "x", place: place, source: .replay(recordedAt: now), fetchedAt: now,
                                   hourly: hours([0, 1])).validated(now: now.addingTimeInterval(years))
        #expect(report.hourly.count == 2)
        #expect(report.warnings.isEmpty)
        let live = WeatherReport(providerID: "x", place: place, fetchedAt: now, hourly: hours([0, 1]))
            .validated(now: now.addingTimeInterval(years))
        #expect(live.hourly.isEmpty)
    }

    @Test("the source reports of a replayed answer (Open-Meteo's models) are judged against its recording too")
    func replayedSourcesUseRecording() {
        let current = WeatherSample(time: now, periodHours: 0.25)
        var answer = WeatherReport(providerID: "om", place: place, source: .replay(recordedAt: now), fetchedAt: now)
        answer.sourceReports = ["om/a", "om/b"].map { WeatherReport(providerID: $0, place: place, fetchedAt: now, current: current) }
        let report = answer.validated(now: now.addingTimeInterval(3 * 86_400))
        #expect(report.sourceReports.map { $0.current != nil } == [true, true])
        #expect(report.sourceReports.allSatisfy { $0.warnings.isEmpty })
    }
}
