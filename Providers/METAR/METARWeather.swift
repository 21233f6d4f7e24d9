import IsobarCore

/// Present-weather groups (`-SN`, `+TSRAGR`, `FZDZ`, `BR`…) and sky cover (`FEW`…`OVC`) in Isobar's conditions.
public enum METARWeather {
    /// The condition one present-weather group stands for; nil for a group that is not weather at the station
    /// (`VC…`, in the vicinity; `RE…`, recent) or not a weather group at all.
    public static func condition(ofGroup group: String) -> Condition? {
        var rest = Substring(group)
        if rest.hasPrefix("+") || rest.hasPrefix("-") { rest = rest.dropFirst() }
        guard !rest.hasPrefix("VC"), !rest.hasPrefix("RE"), !rest.isEmpty, rest.count % 2 == 0 else { return nil }
        var codes: [Substring] = []
        while !rest.isEmpty {
            codes.append(rest.prefix(2))
            rest = rest.dropFirst(2)
        }
        guard codes.allSatisfy({ knownCodes.contains(String($0)) }) else { return nil }
        let has = { (code: String) in codes.contains(Substring(code)) }
        if has("FC") { return .tornado }
        if has("TS") { return has("GR") || has("GS") ? .thunderstormWithHail : .thunderstorm }
        if has("SQ") { return .squall }
        if has("FZ"), has("DZ") { return .freezingDrizzle }
        if has("FZ"), has("RA") { return .freezingRain }
        if (has("RA") || has("DZ")) && (has("SN") || has("SG")) || has("PL") { return .rainAndSnow }
        if has("SN") { return has("SH") ? .snowShowers : .snow }
        if has("SG") || has("IC") || has("GS") || has("GR") { return .snowGrains }
        if has("RA") { return has("SH") ? .rainShowers : .rain }
        if has("DZ") { return .drizzle }
        if has("UP") { return .rain }
        if has("FG") || has("BR") { return .fog }
        if has("FU") || has("VA") || has("DU") || has("SA") || has("HZ") || has("PY") || has("PO") || has("SS") || has("DS") {
            return .haze
        }
        return nil
    }

    /// The most severe condition of a list of groups separated by spaces (the JSON `wxString`); nil when none is weather.
    public static func condition(ofGroups text: String) -> Condition? {
        text.split(separator: " ").compactMap { condition(ofGroup: String($0)) }.max()
    }

    /// The cover of a sky layer (`FEW`, `SCT`, `BKN`, `OVC`, `VV` for a sky hidden by fog or snow) or of a clear sky
    /// (`SKC`, `CLR`, `NSC`, `NCD`, `CAVOK`), in percent: the middle of the oktas each code stands for.
    public static func cloudCoverPercent(_ cover: String) -> Double? {
        switch cover {
        case "SKC", "CLR", "NSC", "NCD", "CAVOK": 0
        case "FEW": 18.75
        case "SCT": 43.75
        case "BKN": 75
        case "OVC", "OVX", "VV": 100
        default: nil
        }
    }

    /// The condition of the sky when nothing falls: from the cloud cover.
    public static func sky(cloudCoverPercent: Double) -> Condition {
        switch cloudCoverPercent {
        case ..<1: .clear
        case ..<25: .mainlyClear
        case ..<60: .partlyCloudy
        default: .cloudy
        }
    }

    /// Descriptors, precipitation, obscuration and other phenomena of the present-weather code table.
    static let knownCodes: Set<String> = [
        "MI", "PR", "BC", "DR", "BL", "SH", "TS", "FZ",
        "DZ", "RA", "SN", "SG", "IC", "PL", "GR", "GS", "UP",
        "BR", "FG", "FU", "VA", "DU", "SA", "HZ", "PY",
        "PO", "SQ", "FC", "SS", "DS",
    ]
}
