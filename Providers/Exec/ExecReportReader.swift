import FoundationEssentials
import IsobarCore

/// Reads a program's report strictly: SI units named in every field, known fields only, values within their physical
/// range, times in order. Anything wrong is a `badResponse` naming its JSON path; nothing is guessed or dropped.
public struct ExecReportReader: Sendable {
    /// The provider whose reports these are.
    public let providerID: String

    /// A reader for `providerID`'s reports.
    public init(providerID: String) { self.providerID = providerID }

    static let sampleKeys = Set(ExecFields.sampleQuantities.map(\.fieldName) + ExecFields.sampleExtras)
    static let dayKeys = Set(ExecFields.dayQuantities.map(\.fieldName) + ExecFields.dayExtras)
    static let reportKeys: Set<String> = ["units", "utc_offset_seconds", "timezone", "current", "hourly", "daily", "alerts"]

    /// The report in the `report` member of an answer, for `request`, fetched at `now`.
    public func read(_ answer: JSONValue, request: WeatherRequest, now: Date) throws(ProviderError) -> WeatherReport {
        do {
            let value = try answer.member("report")
            try refuseUnknown(value, Self.reportKeys)
            let units = try value.member("units")
            guard try units.string() == "si" else { throw fault(units, "must be \"si\" (values in °C, m/s, hPa, mm, %, m)") }
            var report = WeatherReport(providerID: providerID, place: request.place, fetchedAt: now)
            report.utcOffsetSeconds = try value.optionalInt("utc_offset_seconds", in: PlausibleRange.utcOffsetSeconds)
            report.timeZoneIdentifier = try value.optionalString("timezone")
            if let current = try value.nonNullMember("current") { report.current = try sample(current) }
            report.hourly = try (value.nonNullMember("hourly")?.elements() ?? []).map { element in try sample(element) }
            try checkOrder(report.hourly.map(\.time), value.path.appending(key: "hourly"))
            report.daily = try (value.nonNullMember("daily")?.elements() ?? []).map { element in try day(element) }
            for index in report.daily.indices.dropFirst() where report.daily[index].date.daysSinceEpoch <= report.daily[index - 1].date.daysSinceEpoch {
                throw ProviderError(.badResponse(path: "$.report.daily[\(index)].date"),
                                    "\(providerID): the program's report is wrong at $.report.daily[\(index)].date: days must be in order, each once")
            }
            // An alert source's report holds `alerts`, empty when no warning is in force.
            let alerts = try value.nonNullMember("alerts")
            if let alerts { report.alerts = try ExecAlertReader(providerID: providerID).alerts(alerts) }
            guard report.current != nil || !report.hourly.isEmpty || !report.daily.isEmpty || alerts != nil else {
                throw ProviderError(.badResponse(path: "$.report"), "\(providerID): the program's report holds no data")
            }
            return report
        } catch let error as JSONError {
            throw ProviderError(.badResponse(path: error.path), "\(providerID): the program's report is wrong: \(error)")
        } catch let error as ProviderError {
            throw error
        } catch {
            throw ProviderError(.badResponse(path: "$.report"), "\(providerID): the program's report cannot be read")
        }
    }

    private func sample(_ value: JSONValue) throws -> WeatherSample {
        try refuseUnknown(value, Self.sampleKeys)
        var sample = WeatherSample(time: try instant(value.member("time")), periodHours: 1)
        if let period = try value.nonNullMember("period_hours") {
            let hours = try period.double()
            guard hours > 0, hours <= 24 else { throw fault(period, "must be more than 0 and at most 24 hours, not \(JSONOutput.format(hours))") }
            sample.periodHours = hours
        }
        for quantity in ExecFields.sampleQuantities where quantity != .precipitationRate {
            sample[quantity] = try number(value, quantity.fieldName, quantity.spec.range)
        }
        let rate = Quantity.precipitationRate.spec.range
        sample.precipitationMM = try number(value, Quantity.precipitationRate.fieldName, rate.lowerBound...rate.upperBound * sample.periodHours)
        sample.condition = try condition(value)
        sample.isDay = try value.nonNullMember("is_day")?.bool()
        return sample
    }

    private func day(_ value: JSONValue) throws -> DailyPoint {
        try refuseUnknown(value, Self.dayKeys)
        let dateValue = try value.member("date")
        guard let date = LocalDate(iso: Substring(try dateValue.string())) else { throw fault(dateValue, "must be a date such as 2026-11-28") }
        var day = DailyPoint(date: date)
        for quantity in ExecFields.dayQuantities {
            day[quantity] = try number(value, quantity.fieldName, quantity.spec.range)
        }
        if let low = day.temperatureMinC, let high = day.temperatureMaxC, low > high {
            throw fault(try value.member("temperature_min_c"), "is above temperature_max_c")
        }
        day.condition = try condition(value)
        day.sunrise = try value.nonNullMember("sunrise").map { sunrise throws in try instant(sunrise) }
        day.sunset = try value.nonNullMember("sunset").map { sunset throws in try instant(sunset) }
        return day
    }

    private func number(_ value: JSONValue, _ key: String, _ range: ClosedRange<Double>) throws -> Double? {
        guard let member = try value.nonNullMember(key) else { return nil }
        let number = try member.double()
        guard number.isFinite, range.contains(number) else {
            throw fault(member, "\(JSONOutput.format(number)) is outside \(JSONOutput.format(range.lowerBound))…\(JSONOutput.format(range.upperBound))")
        }
        return number
    }

    private func condition(_ value: JSONValue) throws -> Condition? {
        guard let member = try value.nonNullMember("condition") else { return nil }
        let text = try member.string()
        guard let condition = Condition.allCases.first(where: { $0.id == text }) else {
            throw fault(member, "\(member.shortText) is not a condition (\(Condition.allCases.map(\.id).joined(separator: ", ")))")
        }
        return condition
    }

    private func instant(_ value: JSONValue) throws -> Date {
        guard let date = CivilTime.instant(iso: try value.string()) else {
            throw fault(value, "must be an ISO-8601 instant with a zone, such as 2026-11-28T09:00:00Z")
        }
        return date
    }

    private func checkOrder(_ times: [Date], _ path: JSONPath) throws(ProviderError) {
        for index in times.indices.dropFirst() where times[index] <= times[index - 1] {
            let at = "\(path.appending(index: index).description).time"
            throw ProviderError(.badResponse(path: at), "\(providerID): the program's report is wrong at \(at): steps must be in time order, each once")
        }
    }

    private func refuseUnknown(_ value: JSONValue, _ known: Set<String>) throws {
        for (key, member) in try value.members() where !known.contains(key) {
            throw fault(member, "is not a field of the protocol (fields carry their SI unit in the name, such as temperature_c)")
        }
    }

    private func fault(_ value: JSONValue, _ problem: String) -> ProviderError {
        ProviderError(.badResponse(path: value.path.description), "\(providerID): the program's report is wrong at \(value.path): \(problem)")
    }
}
