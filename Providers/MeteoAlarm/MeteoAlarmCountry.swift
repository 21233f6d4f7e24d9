import IsobarCore

/// A country MeteoAlarm publishes feeds for: its ISO 3166-1 code, the name its feeds are published under, and its name for
/// people.
public struct MeteoAlarmCountry: Sendable, Equatable {
    /// ISO 3166-1 alpha-2, upper case (`GB`).
    public let code: String
    /// The feeds' name for it (`united-kingdom` in `feeds/meteoalarm-legacy-atom-united-kingdom`).
    public let feed: String
    /// Its name for people.
    public let name: String

    /// The country with ISO code or feed name `text` (any case), nil when MeteoAlarm has no feed for it.
    public init?(_ text: String) {
        let lowered = text.lowercased()
        guard let found = Self.all.first(where: { $0.code.lowercased() == lowered || $0.feed == lowered }) else { return nil }
        self = found
    }

    private init(_ code: String, _ feed: String, _ name: String) {
        self.code = code
        self.feed = feed
        self.name = name
    }

    /// The members whose national services publish through MeteoAlarm, by ISO code.
    public static let all: [MeteoAlarmCountry] = [
        .init("AT", "austria", "Austria"), .init("BA", "bosnia-herzegovina", "Bosnia and Herzegovina"), .init("BE", "belgium", "Belgium"),
        .init("BG", "bulgaria", "Bulgaria"), .init("CH", "switzerland", "Switzerland"), .init("CY", "cyprus", "Cyprus"),
        .init("CZ", "czechia", "Czechia"), .init("DE", "germany", "Germany"), .init("DK", "denmark", "Denmark"),
        .init("EE", "estonia", "Estonia"), .init("ES", "spain", "Spain"), .init("FI", "finland", "Finland"), .init("FR", "france", "France"),
        .init("GB", "united-kingdom", "the United Kingdom"), .init("GR", "greece", "Greece"), .init("HR", "croatia", "Croatia"),
        .init("HU", "hungary", "Hungary"), .init("IE", "ireland", "Ireland"), .init("IL", "israel", "Israel"), .init("IS", "iceland", "Iceland"),
        .init("IT", "italy", "Italy"), .init("LT", "lithuania", "Lithuania"), .init("LU", "luxembourg", "Luxembourg"),
        .init("LV", "latvia", "Latvia"), .init("MD", "moldova", "Moldova"), .init("ME", "montenegro", "Montenegro"),
        .init("MK", "north-macedonia", "North Macedonia"), .init("MT", "malta", "Malta"), .init("NL", "netherlands", "the Netherlands"),
        .init("NO", "norway", "Norway"), .init("PL", "poland", "Poland"), .init("PT", "portugal", "Portugal"), .init("RO", "romania", "Romania"),
        .init("RS", "serbia", "Serbia"), .init("SE", "sweden", "Sweden"), .init("SI", "slovenia", "Slovenia"), .init("SK", "slovakia", "Slovakia"),
        .init("TR", "turkey", "Turkey"), .init("UA", "ukraine", "Ukraine"),
    ]
}
