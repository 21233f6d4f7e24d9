import FoundationEssentials
import IsobarCore

/// Encodes a `WeatherReport` for the cache, and decodes it back exactly (numbers keep every bit).
public enum ReportCodec {
    /// The payload format version; a cached payload of another version is ignored.
    public static let version = 1

    /// The report as compact JSON.
    public static func encode(_ report: WeatherReport) -> String {
        object(report).serialized()
    }

    /// The report for `place`, or nil when the payload is unreadable or of another version.
    public static func decode(_ payload: String, place: Place) -> WeatherReport? {
        do {
            let root = try JSONDocument(parsing: payload).rootValue
            guard try root.int("v") == version else { return nil }
            return try report(root, place: place)
        } catch {
            return nil
        }
    }

    private static func object(_ report: WeatherReport) -> JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("v", .integer(version)), ("provider", .string(report.providerID)),
            ("fetched_at", .number(report.fetchedAt.timeIntervalSince1970)),
            ("offset", report.utcOffsetSeconds.map(JSONOutput.integer) ?? .null), ("zone", .string(report.timeZoneIdentifier)),
            ("hourly", .array(report.hourly.map(sample))), ("daily", .array(report.daily.map(day))),
        ]
        if case .replay(let recordedAt) = report.source { members.append(("recorded_at", .number(recordedAt.timeIntervalSince1970))) }
        if let current = report.current { members.append(("current", sample(current))) }
        if !report.sourceReports.isEmpty { members.append(("sources", .array(report.sourceReports.map(object)))) }
        return .object(members)
    }

    private static func report(_ root: JSONValue, place: Place) throws -> WeatherReport {
        var report = WeatherReport(
            providerID: try root.string("provider"), place: place,
            fetchedAt: Date(timeIntervalSince1970: try root.double("fetched_at")),
            utcOffsetSeconds: try root.optionalInt("offset"), timeZoneIdentifier: try root.optionalString("zone"))
        if let recordedAt = try root.optionalDouble("recorded_at") { report.source = .replay(recordedAt: Date(timeIntervalSince1970: recordedAt)) }
        report.current = try root.nonNullMember("current").map(sample)
        report.hourly = try root.member("hourly").elements().map(sample)
        report.daily = try root.member("daily").elements().map(day)
        report.sourceReports = try root.nonNullMember("sources")?.elements().map { try Self.report($0, place: place) } ?? []
        return report
    }

    /// Every quantity but precipitation (stored as its amount under `pr`), by its declared cache key.
    private static let sampleQuantities = Quantity.allCases.filter { $0 != .precipitationRate }

    private static func sample(_ sample: WeatherSample) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("time", .number(sample.time.timeIntervalSince1970)), ("h", .number(sample.periodHours))]
        for quantity in sampleQuantities { if let value = sample[quantity] { members.append((quantity.spec.cacheKey, .number(value))) } }
        if let amount = sample.precipitationMM { members.append(("pr", .number(amount))) }
        if !sample.derivedQuantities.isEmpty {
            members.append(("derived", .array(sample.derivedQuantities.map(\.rawValue).sorted().map(JSONOutput.string))))
        }
        if let condition = sample.condition { members.append(("c", .string(condition.id))) }
        if let isDay = sample.isDay { members.append(("day", .bool(isDay))) }
        return .object(members)
    }

    private static func sample(_ value: JSONValue) throws -> WeatherSample {
        var sample = WeatherSample(time: Date(timeIntervalSince1970: try value.double("time")), periodHours: try value.double("h"))
        for quantity in sampleQuantities { sample[quantity] = try value.optionalDouble(quantity.spec.cacheKey) }
        sample.precipitationMM = try value.optionalDouble("pr")
        sample.derivedQuantities = Set(try value.nonNullMember("derived")?.elements().compactMap { Quantity(rawValue: try $0.string()) } ?? [])
        sample.condition = try value.optionalString("c").flatMap(condition)
        sample.isDay = try value.nonNullMember("day")?.bool()
        return sample
    }

    private static func day(_ day: DailyPoint) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("date", .integer(day.date.daysSinceEpoch)), ("derived", .bool(day.isDerived))]
        for quantity in DailyQuantity.allCases { if let value = day[quantity] { members.append((quantity.spec.cacheKey, .number(value))) } }
        if let condition = day.condition { members.append(("c", .string(condition.id))) }
        if !day.derivedQuantities.isEmpty {
            members.append(("derived_fields", .array(day.derivedQuantities.map(\.rawValue).sorted().map(JSONOutput.string))))
        }
        return .object(members)
    }

    private static func day(_ value: JSONValue) throws -> DailyPoint {
        var day = DailyPoint(date: LocalDate(daysSinceEpoch: try value.int("date")), isDerived: try value.member("derived").bool())
        for quantity in DailyQuantity.allCases { day[quantity] = try value.optionalDouble(quantity.spec.cacheKey) }
        day.condition = try value.optionalString("c").flatMap(condition)
        day.derivedQuantities = Set(
            try value.nonNullMember("derived_fields")?.elements().compactMap { DailyQuantity(rawValue: try $0.string()) } ?? [])
        return day
    }

    private static func condition(_ id: String) -> Condition? { Condition.allCases.first { $0.id == id } }
}
