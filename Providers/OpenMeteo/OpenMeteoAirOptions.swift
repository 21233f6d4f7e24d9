import IsobarCore

/// The options of an `open-meteo-air` entry: the CAMS domain it asks.
public struct OpenMeteoAirOptions: Sendable, Equatable {
    /// Open-Meteo's `domains` values.
    public enum Domain: String, Sendable, CaseIterable {
        /// CAMS Europe where it covers the place, else CAMS global.
        case auto
        /// CAMS Europe (0.1°, hourly, 4 days, pollen in season).
        case europe = "cams_europe"
        /// CAMS global (0.4°, 3-hourly, 5 days, no pollen).
        case global = "cams_global"
    }

    /// `domains`: the domain asked.
    public var domain: Domain

    /// Options asking `domain`.
    public init(domain: Domain) { self.domain = domain }

    /// The keys an open-meteo-air entry has of its own.
    public static let keys = ["domains"]

    /// `domains`: `auto`, `europe` or `global` (Open-Meteo's `cams_europe` and `cams_global` too), when present.
    public static func read(_ source: OptionSource) throws(OptionError) -> ProviderOptions {
        try OptionError.reading {
            guard let value = try source.entry.nonNullMember("domains") else { return ProviderOptions(OpenMeteoAirOptions(domain: .auto)) }
            let text = try value.string()
            let domain: Domain? = switch text {
            case "auto": .auto
            case "europe", "cams_europe": .europe
            case "global", "cams_global": .global
            default: nil
            }
            guard let domain else { throw OptionError("\(value.path) must be auto, europe or global, not '\(text)'") }
            return ProviderOptions(OpenMeteoAirOptions(domain: domain), endpoint: "domains=\(domain.rawValue)")
        }
    }
}
