import FoundationEssentials
import IsobarCore

/// Turns Open-Meteo `/v1/air-quality` bodies into the canonical model, converting by the body's own unit strings.
public struct OpenMeteoAirDecoder: Sendable {
    /// Name used in error messages.
    public var providerName: String

    /// Creates a decoder.
    public init(providerName: String = "Open-Meteo Air") { self.providerName = providerName }

    /// Decodes a response, mapping failure statuses and `{"error":true}` bodies to errors; a value of an unknown unit or the
    /// wrong type is left out with a warning.
    public func decode(_ response: HTTPResponse, now: Date) throws(ProviderError) -> OpenMeteoForecast {
        let body = try CheckedBody(response, provider: providerName, messageKey: "reason", now: now)
        let reason = body.serverMessage
        return try ProviderError.decoding(provider: providerName) {
            let root = try body.root()
            try OpenMeteoEnvelope.checkRefusal(root, provider: providerName, reason: reason)
            let (offset, zone) = try OpenMeteoEnvelope.zone(root)
            var forecast = OpenMeteoForecast(utcOffsetSeconds: offset, timeZoneIdentifier: zone, current: nil, hourly: [], daily: [])
            if let current = try root.nonNullMember("current") {
                forecast.current = try decodeCurrent(current, units: try root.nonNullMember("current_units"), offset: offset,
                                                     warnings: &forecast.warnings)
            }
            if let hourly = try root.nonNullMember("hourly") {
                forecast.hourly = try decodeHourly(hourly, units: try root.nonNullMember("hourly_units"), offset: offset,
                                                   warnings: &forecast.warnings)
            }
            return forecast
        }
    }

    private func decodeCurrent(_ current: JSONValue, units: JSONValue?, offset: Int, warnings: inout [ValueWarning]) throws -> WeatherSample {
        let timeValue = try current.member("time")
        guard let time = CivilTime.instant(localISO: try timeValue.string(), utcOffsetSeconds: offset) else {
            throw JSONError(.typeMismatch(expected: "local time yyyy-MM-ddTHH:mm", found: "other text"), path: timeValue.path)
        }
        let interval = try current.tolerantDouble("interval", &warnings).flatMap { (1...86_400).contains($0) ? $0 : nil } ?? 3600
        var sample = WeatherSample(time: time, periodHours: interval / 3600)
        for quantity in Quantity.air {
            guard let name = OpenMeteoAirProvider.variables[quantity], let value = try current.tolerantDouble(name, &warnings) else { continue }
            guard let convert = try converter(units, name, quantity, &warnings) else { continue }
            sample[quantity] = convert(value)
        }
        return sample
    }

    private func decodeHourly(_ hourly: JSONValue, units: JSONValue?, offset: Int, warnings: inout [ValueWarning]) throws -> [WeatherSample] {
        let series = try Series(hourly)
        let times = try series.time.mapStrings(expected: "local time yyyy-MM-ddTHH:mm") {
            CivilTime.instant(localISOBytes: $0, utcOffsetSeconds: offset)
        }
        var samples = try times.enumerated().map { index, time in
            guard let time else {
                throw JSONError(.typeMismatch(expected: "local time yyyy-MM-ddTHH:mm", found: "null"), path: series.time.path.appending(index: index))
            }
            return WeatherSample(time: time, periodHours: 1)
        }
        try TimeOrder.check(samples.map(\.time), at: series.time.path, rule: "steps must be in time order, each once", provider: providerName)
        for quantity in Quantity.air {
            guard let name = OpenMeteoAirProvider.variables[quantity], try hourly.member(ifPresent: name) != nil,
                  let convert = try converter(units, name, quantity, &warnings) else { continue }
            series.fill(&warnings, name, into: &samples) { $0[quantity] = convert($1) }
        }
        return samples
    }

    /// The conversion the unit block names for `name`; µg/m³ or grains/m³ when it names none; nil (with a warning) for a unit
    /// Isobar does not know.
    private func converter(_ units: JSONValue?, _ name: String, _ quantity: Quantity,
                           _ warnings: inout [ValueWarning]) throws -> ((Double) -> Double?)? {
        guard let value = try units?.nonNullMember(name) else { return { $0 } }
        let text = (try? value.string()) ?? ""
        if let convert = AirUnits.converter(from: text, for: quantity) { return convert }
        warnings.append(ValueWarning(field: name, path: value.path.description, value: value.shortText, reason: "unknown unit"))
        return nil
    }
}
