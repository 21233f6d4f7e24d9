import FoundationEssentials
import IsobarCore
import Testing

@Suite("WeatherReport: a value, though its fields share one box between copies")
struct WeatherReportTests {
    static let minsk = Place(name: "Minsk", countryCode: "BY", coordinate: Coordinate(latitude: 53.9, longitude: 27.57)!)
    static let noon = Date(timeIntervalSince1970: 1_795_867_200)

    static func report() -> WeatherReport {
        var sample = WeatherSample(time: noon, periodHours: 1)
        sample.temperatureC = -1.5
        var report = WeatherReport(providerID: "open-meteo", place: minsk, fetchedAt: noon, utcOffsetSeconds: 10_800, current: sample,
                                   hourly: [sample, sample])
        report.notices = ["a notice"]
        return report
    }

    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        let original = Self.report()
        var copy = original
        #expect(copy == original)
        copy.current?.temperatureC = 4
        copy.hourly[1].temperatureC = 7
        copy.hourly.append(WeatherSample(time: Self.noon, periodHours: 1))
        copy.freshness = .cached(ageSeconds: 60)
        copy.notices.removeAll()
        copy.sourceReports = [original]

        #expect(original.current?.temperatureC == -1.5)
        #expect(original.hourly.map(\.temperatureC) == [-1.5, -1.5])
        #expect(original.freshness == .fresh)
        #expect(original.notices == ["a notice"])
        #expect(original.sourceReports.isEmpty)
        #expect(copy.current?.temperatureC == 4)
        #expect(copy.hourly.map(\.temperatureC) == [-1.5, 7, nil])
        #expect(copy.sourceReports == [original])
        #expect(copy != original)
    }

    @Test func reportsBuiltApartAreEqualFieldByField() {
        var one = Self.report()
        var other = Self.report()
        #expect(one == other)
        other.utcOffsetSeconds = 0
        #expect(one != other)
        other.utcOffsetSeconds = 10_800
        #expect(one == other)
        one.caching = HTTPCaching(lifetimeSeconds: 600, noStore: false, mustRevalidate: false, revalidated: false)
        #expect(one != other)
    }

    @Test func aReportChangedAfterItsCopyWasTakenLeavesTheCopyAlone() {
        var original = Self.report()
        let kept = original
        original.place.name = "Moscow"
        original.warnings.append(ValueWarning(field: "temperature", path: "current.t", value: "999", reason: "impossible"))
        #expect(kept.place.name == "Minsk")
        #expect(kept.warnings.isEmpty)
        #expect(original.warnings.count == 1)
    }
}
