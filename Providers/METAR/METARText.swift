import FoundationEssentials
import IsobarCore

/// Reads the text of a METAR or SPECI report (ICAO Annex 3 and the US variant): station, time, wind, visibility,
/// present weather, sky, temperature and dew point (`M05` for −5), altimeter (`Q1013` hPa or `A2992` inHg).
/// Groups it does not know are skipped; nothing after `RMK` or a trend (`NOSIG`, `BECMG`, `TEMPO`) is read.
public enum METARText {
    /// The report's observation, its day and time resolved to the latest such moment not after `reference` plus an hour;
    /// nil when the text does not start with a station and a time.
    public static func parse(_ text: String, reference: Date) -> METARObservation? {
        var groups = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "=" }).map(String.init)[...]
        while let first = groups.first, ["METAR", "SPECI"].contains(first) { groups.removeFirst() }
        guard let station = groups.popFirst(), station.count == 4, station.allSatisfy({ $0.isLetter || $0.isNumber }),
              let stamp = groups.popFirst(), let time = observationTime(stamp, reference: reference)
        else { return nil }
        var observation = METARObservation(station: station, time: time, raw: text)
        var weather: [Condition] = []
        var cover: Double?
        var pendingWholeMiles: Double?
        for group in groups {
            if group == "RMK" || group == "NOSIG" || group == "BECMG" || group == "TEMPO" { break }
            if let whole = pendingWholeMiles {
                pendingWholeMiles = nil
                if let miles = statuteMiles(group) { observation.visibilityM = (whole + miles) * metresPerMile; continue }
            }
            if readWind(group, into: &observation) { continue }
            if group == "CAVOK" {
                observation.visibilityM = 10_000
                cover = max(cover ?? 0, 0)
                continue
            }
            if group.count == 4, let metres = Double(group), group.allSatisfy(\.isNumber) {
                observation.visibilityM = metres == 9_999 ? 10_000 : metres
                continue
            }
            if let miles = statuteMiles(group) { observation.visibilityM = miles * metresPerMile; continue }
            if group.count == 1, let whole = Double(group) { pendingWholeMiles = whole; continue }
            if let percent = layerCover(group) { cover = max(cover ?? 0, percent); continue }
            if readTemperatures(group, into: &observation) { continue }
            if readAltimeter(group, into: &observation) { continue }
            if let condition = METARWeather.condition(ofGroup: group) { weather.append(condition) }
        }
        observation.cloudCoverPercent = cover
        observation.condition = weather.max() ?? cover.map { METARWeather.sky(cloudCoverPercent: $0) }
        return observation
    }

    static let metresPerMile = 1_609.344
    static let metresPerSecondPerKnot = 1_852.0 / 3_600

    /// `DDHHMMZ` as the latest such instant not after `reference` plus an hour (reports cross month ends).
    static func observationTime(_ group: String, reference: Date) -> Date? {
        guard group.count == 7, group.hasSuffix("Z"), let digits = Int(group.dropLast()), digits >= 0 else { return nil }
        let day = digits / 10_000, hour = digits / 100 % 100, minute = digits % 100
        guard (1...31).contains(day), hour < 24, minute < 60 else { return nil }
        let latest = reference.addingTimeInterval(3_600)
        let today = Int((latest.timeIntervalSince1970 / 86_400).rounded(.down))
        var (year, month, _) = CivilTime.civil(fromDays: today)
        for _ in 0...2 {
            if day <= CivilTime.daysIn(month: month, year: year) {
                let days = CivilTime.days(year: year, month: month, day: day)
                let candidate = Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60))
                if candidate <= latest { return candidate }
            }
            month -= 1
            if month < 1 { month = 12; year -= 1 }
        }
        return nil
    }

    /// `dddffKT`, `dddffGggKT`, `VRBffKT`, `00000KT`, in `KT`, `MPS` or `KMH`; `/////KT` (not measured) reads as nothing.
    static func readWind(_ group: String, into observation: inout METARObservation) -> Bool {
        let units: [(suffix: String, toMS: Double)] = [("KT", metresPerSecondPerKnot), ("MPS", 1), ("KMH", 1 / 3.6)]
        guard let unit = units.first(where: { group.hasSuffix($0.suffix) }) else { return false }
        let body = group.dropLast(unit.suffix.count)
        guard body.count >= 5 else { return false }
        let direction = body.prefix(3)
        let speeds = body.dropFirst(3).split(separator: "G", omittingEmptySubsequences: false)
        if body.allSatisfy({ $0 == "/" }) { return true }
        guard speeds.count <= 2, let speed = Double(speeds[0]), (2...3).contains(speeds[0].count) else { return false }
        if direction == "VRB" {
            observation.windVariable = true
        } else if let degrees = Double(direction), degrees <= 360 {
            observation.windDirectionDeg = speed == 0 ? nil : degrees.truncatingRemainder(dividingBy: 360)
        } else {
            return false
        }
        observation.windSpeedMS = speed * unit.toMS
        if speeds.count == 2, let gust = Double(speeds[1]) { observation.windGustMS = gust * unit.toMS }
        return true
    }

    /// `10SM`, `1/2SM`, `M1/4SM` (less than), `P6SM` (more than), in statute miles; nil for any other group.
    static func statuteMiles(_ group: String) -> Double? {
        guard group.hasSuffix("SM") else { return nil }
        var number = group.dropLast(2)
        if number.hasPrefix("M") || number.hasPrefix("P") { number = number.dropFirst() }
        let parts = number.split(separator: "/")
        if parts.count == 2, let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator > 0 {
            return numerator / denominator
        }
        return parts.count == 1 ? Double(parts[0]) : nil
    }

    /// A sky layer (`BKN012`, `OVC003CB`, `VV001`) or a clear sky code, as percent cover.
    static func layerCover(_ group: String) -> Double? {
        if let clear = METARWeather.cloudCoverPercent(group), clear == 0 { return clear }
        for code in ["FEW", "SCT", "BKN", "OVC", "VV"] where group.hasPrefix(code) {
            let height = group.dropFirst(code.count).prefix(3)
            guard height.count == 3, height.allSatisfy({ $0.isNumber || $0 == "/" }) else { return nil }
            return METARWeather.cloudCoverPercent(code)
        }
        return nil
    }

    /// `15/13`, `M05/M08`, `02/` (no dew point), `//////` (neither measured).
    static func readTemperatures(_ group: String, into observation: inout METARObservation) -> Bool {
        let parts = group.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !group.hasPrefix("Q"), !group.hasPrefix("A"),
              parts.allSatisfy({ $0.allSatisfy { $0.isNumber || $0 == "M" || $0 == "/" } }),
              parts[0].count <= 3, parts[1].count <= 3, !(parts[0].isEmpty && parts[1].isEmpty)
        else { return group.allSatisfy { $0 == "/" } && group.count >= 5 }
        observation.temperatureC = celsius(parts[0])
        observation.dewPointC = celsius(parts[1])
        return true
    }

    private static func celsius(_ text: Substring) -> Double? {
        let negative = text.hasPrefix("M")
        guard let value = Double(negative ? text.dropFirst() : text), (negative ? text.count == 3 : text.count == 2) else { return nil }
        return negative ? -value : value
    }

    /// `Q1013` (hPa) or `A2992` (hundredths of an inch of mercury); `Q////` reads as nothing.
    static func readAltimeter(_ group: String, into observation: inout METARObservation) -> Bool {
        guard group.count == 5, let first = group.first, first == "Q" || first == "A" else { return false }
        let digits = group.dropFirst()
        if digits.allSatisfy({ $0 == "/" }) { return true }
        guard digits.allSatisfy(\.isNumber), let value = Double(digits) else { return false }
        observation.pressureHPa = first == "Q" ? value : value / 100 * 33.863_886_666_7
        return true
    }
}
