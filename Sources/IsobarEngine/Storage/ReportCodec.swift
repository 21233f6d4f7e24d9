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

    // Key paths are immutable values; the arrays are never mutated.
    nonisolated(unsafe) private static let sampleFields: [(String, WritableKeyPath<WeatherSample, Double?>)] = [
        ("t", \.temperatureC), ("at", \.apparentTemperatureC), ("rh", \.humidityPercent), ("p", \.pressureHPa),
        ("ws", \.windSpeedMS), ("wg", \.windGustMS), ("wd", \.windDirectionDeg), ("cc", \.cloudCoverPercent),
        ("vis", \.visibilityM), ("pr", \.precipitationMM), ("pp", \.precipitationProbabilityPercent),
    ]

    nonisolated(unsafe) private static let dayFields: [(String, WritableKeyPath<DailyPoint, Double?>)] = [
        ("tmax", \.temperatureMaxC), ("tmin", \.temperatureMinC), ("pr", \.precipitationMM),
        ("ppmax", \.precipitationProbabilityMaxPercent), ("wsmax", \.windSpeedMaxMS), ("wgmax", \.windGustMaxMS),
        ("wd", \.windDirectionDominantDeg),
    ]

    private static func sample(_ sample: WeatherSample) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("time", .number(sample.time.timeIntervalSince1970)), ("h", .number(sample.periodHours))]
        for (key, path) in sampleFields { if let value = sample[keyPath: path] { members.append((key, .number(value))) } }
        if let condition = sample.condition { members.append(("c", .string(condition.id))) }
        if let isDay = sample.isDay { members.append(("day", .bool(isDay))) }
        return .object(members)
    }

    private static func sample(_ value: JSONValue) throws -> WeatherSample {
        var sample = WeatherSample(time: Date(timeIntervalSince1970: try value.double("time")), periodHours: try value.double("h"))
        for (key, path) in sampleFields { sample[keyPath: path] = try value.optionalDouble(key) }
        sample.condition = try value.optionalString("c").flatMap(condition)
        sample.isDay = try value.nonNullMember("day")?.bool()
        return sample
    }

    private static func day(_ day: DailyPoint) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("date", .integer(day.date.daysSinceEpoch)), ("derived", .bool(day.isDerived))]
        for (key, path) in dayFields { if let value = day[keyPath: path] { members.append((key, .number(value))) } }
        if let condition = day.condition { members.append(("c", .string(condition.id))) }
        if let sunrise = day.sunrise { members.append(("rise", .number(sunrise.timeIntervalSince1970))) }
        if let sunset = day.sunset { members.append(("set", .number(sunset.timeIntervalSince1970))) }
        return .object(members)
    }

    private static func day(_ value: JSONValue) throws -> DailyPoint {
        var day = DailyPoint(date: LocalDate(daysSinceEpoch: try value.int("date")), isDerived: try value.member("derived").bool())
        for (key, path) in dayFields { day[keyPath: path] = try value.optionalDouble(key) }
        day.condition = try value.optionalString("c").flatMap(condition)
        day.sunrise = try value.optionalDouble("rise").map(Date.init(timeIntervalSince1970:))
        day.sunset = try value.optionalDouble("set").map(Date.init(timeIntervalSince1970:))
        return day
    }

    private static func condition(_ id: String) -> Condition? { Condition.allCases.first { $0.id == id } }
}
