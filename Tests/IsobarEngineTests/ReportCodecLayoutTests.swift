import FoundationEssentials
import IsobarCore
import IsobarEngine
import Testing

/// The cache payload's layout: written straight into a buffer, byte for byte what a tree of JSON values gives.
@Suite struct ReportCodecLayoutTests {
    /// A report with every field the payload keeps set, and one nested source with none of the optional ones.
    static func fullReport() -> WeatherReport {
        let start = Date(timeIntervalSince1970: 1_795_856_400.25)
        func sample(_ offset: Double) -> WeatherSample {
            var sample = WeatherSample(time: start.addingTimeInterval(offset), periodHours: 1)
            for (index, quantity) in Quantity.allCases.enumerated() where quantity != .precipitationRate {
                sample[quantity] = Double(index) * 1.5 + offset / 3 + 0.1
            }
            sample.precipitationMM = 0.3
            sample.derivedQuantities = [.humidity, .dewPoint]
            sample.condition = Condition.allCases.last
            sample.isDay = offset == 0
            return sample
        }
        var day = DailyPoint(date: LocalDate(daysSinceEpoch: 20_785), isDerived: true)
        for (index, quantity) in DailyQuantity.allCases.enumerated() { day[quantity] = Double(index) - 2.75 }
        day.condition = Condition.allCases.first
        day.derivedQuantities = Set(DailyQuantity.allCases.prefix(2))
        var report = WeatherReport(providerID: "p \"quoted\" é", place: Fixture.place, source: .replay(recordedAt: start),
                                   fetchedAt: start, utcOffsetSeconds: 10_800, timeZoneIdentifier: "Europe/Minsk",
                                   current: sample(0), hourly: [sample(3_600), sample(7_200)], daily: [day, DailyPoint(date: LocalDate(daysSinceEpoch: 1))])
        report.sourceReports = [WeatherReport(providerID: "inner", place: Fixture.place, fetchedAt: start)]
        return report
    }

    @Test func thePayloadIsWhatATreeOfValuesGives() {
        let report = Self.fullReport()
        #expect(ReportCodec.encode(report) == TreeLayout.object(report).serialized())
        let bare = WeatherReport(providerID: "b", place: Fixture.place, fetchedAt: Date(timeIntervalSince1970: 0))
        #expect(ReportCodec.encode(bare) == TreeLayout.object(bare).serialized())
    }

    @Test func thePayloadReadsBackAsTheReport() throws {
        let report = Self.fullReport()
        let decoded = try #require(ReportCodec.decode(ReportCodec.encode(report), place: Fixture.place))
        #expect(decoded.current == report.current)
        #expect(decoded.hourly == report.hourly)
        #expect(decoded.daily == report.daily)
        #expect(decoded.source == report.source)
        #expect(decoded.sourceReports.map(\.providerID) == ["inner"])
        #expect(ReportCodec.decode(String(ReportCodec.encode(report).dropLast()), place: Fixture.place) == nil)
    }
}

/// The payload's layout as a tree of JSON values, as it was first written.
private enum TreeLayout {
    static func object(_ report: WeatherReport) -> JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("v", .integer(ReportCodec.version)), ("provider", .string(report.providerID)),
            ("fetched_at", .number(report.fetchedAt.timeIntervalSince1970)),
            ("offset", report.utcOffsetSeconds.map(JSONOutput.integer) ?? .null), ("zone", .string(report.timeZoneIdentifier)),
            ("hourly", .array(report.hourly.map(sample))), ("daily", .array(report.daily.map(day))),
        ]
        if case .replay(let recordedAt) = report.source { members.append(("recorded_at", .number(recordedAt.timeIntervalSince1970))) }
        if let current = report.current { members.append(("current", sample(current))) }
        if !report.sourceReports.isEmpty { members.append(("sources", .array(report.sourceReports.map(object)))) }
        return .object(members)
    }

    static func sample(_ sample: WeatherSample) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("time", .number(sample.time.timeIntervalSince1970)), ("h", .number(sample.periodHours))]
        for quantity in Quantity.allCases where quantity != .precipitationRate {
            if let value = sample[quantity] { members.append((quantity.spec.cacheKey, .number(value))) }
        }
        if let amount = sample.precipitationMM { members.append(("pr", .number(amount))) }
        if !sample.derivedQuantities.isEmpty {
            members.append(("derived", .array(sample.derivedQuantities.map(\.rawValue).sorted().map(JSONOutput.string))))
        }
        if let condition = sample.condition { members.append(("c", .string(condition.id))) }
        if let isDay = sample.isDay { members.append(("day", .bool(isDay))) }
        return .object(members)
    }

    static func day(_ day: DailyPoint) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("date", .integer(day.date.daysSinceEpoch)), ("derived", .bool(day.isDerived))]
        for quantity in DailyQuantity.allCases { if let value = day[quantity] { members.append((quantity.spec.cacheKey, .number(value))) } }
        if let condition = day.condition { members.append(("c", .string(condition.id))) }
        if !day.derivedQuantities.isEmpty {
            members.append(("derived_fields", .array(day.derivedQuantities.map(\.rawValue).sorted().map(JSONOutput.string))))
        }
        return .object(members)
    }
}
