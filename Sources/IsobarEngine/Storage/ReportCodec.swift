import FoundationEssentials
import IsobarCore

/// Encodes a `WeatherReport` for the cache, and decodes it back exactly (numbers keep every bit).
public enum ReportCodec {
    /// The payload format version; a cached payload of another version is ignored.
    public static let version = 1

    /// The report as compact JSON.
    public static func encode(_ report: WeatherReport) -> String {
        // Written straight into one buffer: no tree of values is built first.
        var buffer = JSONOutputBuffer(capacity: 512)
        write(report, into: &buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
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

    /// Writes `report` as one object, its members in a fixed order.
    private static func write(_ report: WeatherReport, into buffer: inout JSONOutputBuffer) {
        buffer.beginObject()
        buffer.key(text: "v")
        buffer.integer(version)
        buffer.key(text: "provider")
        buffer.string(report.providerID)
        buffer.key(text: "fetched_at")
        buffer.number(report.fetchedAt.timeIntervalSince1970)
        buffer.key(text: "offset")
        buffer.integer(report.utcOffsetSeconds)
        buffer.key(text: "zone")
        buffer.string(report.timeZoneIdentifier)
        buffer.key(text: "hourly")
        buffer.beginArray()
        for sample in report.hourly { write(sample, into: &buffer) }
        buffer.endArray()
        buffer.key(text: "daily")
        buffer.beginArray()
        for day in report.daily { write(day, into: &buffer) }
        buffer.endArray()
        if case .replay(let recordedAt) = report.source {
            buffer.key(text: "recorded_at")
            buffer.number(recordedAt.timeIntervalSince1970)
        }
        if let current = report.current {
            buffer.key(text: "current")
            write(current, into: &buffer)
        }
        if !report.sourceReports.isEmpty {
            buffer.key(text: "sources")
            buffer.beginArray()
            for source in report.sourceReports { write(source, into: &buffer) }
            buffer.endArray()
        }
        buffer.endObject()
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

    /// Writes `sample` as one object.
    private static func write(_ sample: WeatherSample, into buffer: inout JSONOutputBuffer) {
        buffer.beginObject()
        buffer.key(text: "time")
        buffer.number(sample.time.timeIntervalSince1970)
        buffer.key(text: "h")
        buffer.number(sample.periodHours)
        for quantity in sampleQuantities {
            guard let value = sample[quantity] else { continue }
            buffer.key(text: quantity.spec.cacheKey)
            buffer.number(value)
        }
        if let amount = sample.precipitationMM {
            buffer.key(text: "pr")
            buffer.number(amount)
        }
        if !sample.derivedQuantities.isEmpty {
            buffer.key(text: "derived")
            buffer.strings(sample.derivedQuantities.map(\.rawValue).sorted())
        }
        if let condition = sample.condition {
            buffer.key(text: "c")
            buffer.string(condition.id)
        }
        if let isDay = sample.isDay {
            buffer.key(text: "day")
            buffer.bool(isDay)
        }
        if let index = sample.providerAirIndex {
            buffer.key(text: "aqi")
            buffer.number(index.value)
            buffer.key(text: "aqi_scale")
            buffer.string(index.scale)
            if let category = index.category {
                buffer.key(text: "aqi_category")
                buffer.string(category)
            }
        }
        buffer.endObject()
    }

    private static func sample(_ value: JSONValue) throws -> WeatherSample {
        var sample = WeatherSample(time: Date(timeIntervalSince1970: try value.double("time")), periodHours: try value.double("h"))
        for quantity in sampleQuantities { sample[quantity] = try value.optionalDouble(quantity.spec.cacheKey) }
        sample.precipitationMM = try value.optionalDouble("pr")
        sample.derivedQuantities = Set(try value.nonNullMember("derived")?.elements().compactMap { Quantity(rawValue: try $0.string()) } ?? [])
        sample.condition = try value.optionalString("c").flatMap(condition)
        sample.isDay = try value.nonNullMember("day")?.bool()
        if let index = try value.optionalDouble("aqi") {
            sample.providerAirIndex = ProviderAirIndex(scale: try value.string("aqi_scale"), value: index, category: try value.optionalString("aqi_category"))
        }
        return sample
    }

    /// Writes `day` as one object.
    private static func write(_ day: DailyPoint, into buffer: inout JSONOutputBuffer) {
        buffer.beginObject()
        buffer.key(text: "date")
        buffer.integer(day.date.daysSinceEpoch)
        buffer.key(text: "derived")
        buffer.bool(day.isDerived)
        for quantity in DailyQuantity.allCases {
            guard let value = day[quantity] else { continue }
            buffer.key(text: quantity.spec.cacheKey)
            buffer.number(value)
        }
        if let condition = day.condition {
            buffer.key(text: "c")
            buffer.string(condition.id)
        }
        if !day.derivedQuantities.isEmpty {
            buffer.key(text: "derived_fields")
            buffer.strings(day.derivedQuantities.map(\.rawValue).sorted())
        }
        buffer.endObject()
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
