import FoundationEssentials
import IsobarCore

/// Turns the Aviation Weather Center's METAR answers (`/api/data/metar?format=json`) into observations.
public struct METARDecoder: Sendable {
    /// Name used in error messages.
    public var providerName: String

    /// Creates a decoder.
    public init(providerName: String = "Aviation Weather Center") { self.providerName = providerName }

    /// Every readable report of the answer (an empty answer — HTTP 204 or `[]` — is none); a report that cannot be read is
    /// left out with a warning. The report's text gives every group; the answer's decoded fields, where present, win
    /// (they carry the tenths the US remarks give).
    public func decode(_ response: HTTPResponse, now: Date) throws(ProviderError) -> (observations: [METARObservation], warnings: [ValueWarning]) {
        if response.status == 204 || (response.status == 200 && response.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D })) {
            return ([], [])
        }
        let body = try CheckedBody(response, provider: providerName, messageKey: "error", now: now)
        return try ProviderError.decoding(provider: providerName) {
            var observations: [METARObservation] = []
            var warnings: [ValueWarning] = []
            for report in try body.root().elements() {
                if let observation = try? observation(report, now: now) {
                    observations.append(observation)
                } else {
                    warnings.append(ValueWarning(field: "metar", path: report.path.description, value: "a report",
                                                 reason: "no station, time or readable text"))
                }
            }
            return (observations, warnings)
        }
    }

    private func observation(_ report: JSONValue, now: Date) throws -> METARObservation? {
        let raw = try report.optionalString("rawOb") ?? ""
        let stamped = try report.optionalInt("obsTime").map { Date(timeIntervalSince1970: Double($0)) }
        let parsed = METARText.parse(raw, reference: stamped ?? now)
        guard let station = try report.optionalString("icaoId") ?? parsed?.station, let time = stamped ?? parsed?.time else { return nil }
        var observation = parsed ?? METARObservation(station: station, time: time, raw: raw)
        observation.station = station
        observation.time = time
        if let value = try? report.optionalDouble("temp") { observation.temperatureC = value }
        if let value = try? report.optionalDouble("dewp") { observation.dewPointC = value }
        if let direction = try report.nonNullMember("wdir") {
            if direction.kind == .string, (try? direction.string()) == "VRB" {
                observation.windVariable = true
                observation.windDirectionDeg = nil
            } else if let degrees = try? direction.double() {
                observation.windDirectionDeg = degrees
            }
        }
        if let knots = try? report.optionalDouble("wspd") {
            observation.windSpeedMS = knots * METARText.metresPerSecondPerKnot
            if knots == 0 { observation.windDirectionDeg = nil }
        }
        if let knots = try? report.optionalDouble("wgst") { observation.windGustMS = knots * METARText.metresPerSecondPerKnot }
        if let visibility = try report.nonNullMember("visib") {
            // Statute miles; "10+" and "6+" mean at least that much.
            let miles = (try? visibility.double()) ?? (try? visibility.string()).flatMap { Double($0.filter { $0 != "+" }) }
            if let miles { observation.visibilityM = min(10_000, miles * METARText.metresPerMile) }
        }
        if let hectopascals = try? report.optionalDouble("altim") { observation.pressureHPa = hectopascals }
        if let groups = try? report.optionalString("wxString"), let condition = METARWeather.condition(ofGroups: groups) {
            observation.condition = condition
        }
        if let layers = try report.nonNullMember("clouds"), let covers = try? layers.elements().compactMap({ try $0.optionalString("cover") }),
           let cover = covers.compactMap(METARWeather.cloudCoverPercent).max() {
            observation.cloudCoverPercent = cover
            if observation.condition == nil || observation.condition! <= .cloudy {
                observation.condition = METARWeather.sky(cloudCoverPercent: cover)
            }
        }
        return observation
    }
}
