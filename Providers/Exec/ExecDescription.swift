import FoundationEssentials
import IsobarCore

/// What a program says about itself in answer to `describe`.
public struct ExecDescription: Sendable, Equatable {
    /// How the program gets its data.
    public enum Mode: String, Sendable {
        /// The host makes the HTTP requests the program plans, and the program decodes the responses (the default).
        case http
        /// The program returns the report itself (sources that are not HTTP).
        case fetch
    }

    /// Where the program has data (the provider protocol's coverage).
    public typealias Coverage = IsobarCore.Coverage

    /// Provider id the program suggests (the configuration's id wins).
    public var id: String
    /// Name for people.
    public var name: String
    /// Whom to credit for the data.
    public var attribution: String
    /// The data's licence.
    public var licence: String
    /// Kinds it gives.
    public var kinds: Set<DataKind>
    /// Days of forecast.
    public var horizonDays: Int
    /// Hours between forecast steps.
    public var stepHours: Int
    /// Quantities it fills.
    public var quantities: Set<Quantity>
    /// The environment variable of its key, when it needs one.
    public var keyVariable: String?
    /// Query parameter names that carry the key (never stored or shown).
    public var keyQueryNames: Set<String>
    /// Published rate limits.
    public var rateLimits: [RateLimit]
    /// Where it has data.
    public var coverage: Coverage
    /// How it gets its data.
    public var mode: Mode
    /// Seconds answers stay fresh: current conditions, forecasts.
    public var freshFor: (current: Double, forecast: Double)

    public static func == (lhs: ExecDescription, rhs: ExecDescription) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.kinds == rhs.kinds && lhs.horizonDays == rhs.horizonDays && lhs.mode == rhs.mode
            && lhs.keyVariable == rhs.keyVariable && lhs.coverage == rhs.coverage && lhs.rateLimits == rhs.rateLimits
    }

    /// The capabilities the engine sees.
    public var capabilities: ProviderCapabilities {
        ProviderCapabilities(kinds: kinds, horizonDays: horizonDays, stepHours: stepHours, quantities: quantities,
                             requiresAPIKey: keyVariable != nil, geocoding: false, rateLimits: rateLimits, freshFor: freshFor,
                             attribution: attribution.isEmpty ? nil : licence.isEmpty ? attribution : "\(attribution) (\(licence))")
    }

    /// Reads the `describe` member of an answer; every problem names its JSON path.
    public init(answer: JSONValue) throws(JSONError) {
        let value = try answer.member("describe")
        id = try value.string("id")
        name = try value.string("name")
        attribution = try value.optionalString("attribution") ?? ""
        licence = try value.optionalString("licence") ?? ""
        var kinds = Set<DataKind>()
        for element in try value.member("kinds").elements() {
            guard let kind = DataKind(rawValue: try element.string()) else {
                throw JSONError(.typeMismatch(expected: "current, hourly or daily", found: element.shortText), path: element.path)
            }
            kinds.insert(kind)
        }
        guard !kinds.isEmpty else { throw JSONError(.typeMismatch(expected: "at least one kind", found: "none"), path: value.path.appending(key: "kinds")) }
        self.kinds = kinds
        horizonDays = try value.optionalInt("horizon_days", in: 0...46) ?? 0
        stepHours = try value.optionalInt("step_hours", in: 1...24) ?? 1
        var quantities = Set<Quantity>()
        for element in try value.nonNullMember("quantities")?.elements() ?? [] {
            guard let quantity = Quantity(rawValue: try element.string()) else {
                throw JSONError(.typeMismatch(expected: "a quantity (\(Quantity.allCases.map(\.rawValue).joined(separator: ", ")))", found: element.shortText),
                                path: element.path)
            }
            quantities.insert(quantity)
        }
        self.quantities = quantities
        if let key = try value.nonNullMember("key") {
            keyVariable = try key.string("variable")
            keyQueryNames = Set(try key.nonNullMember("query_names")?.elements().map { element throws(JSONError) in try element.string() } ?? [])
        } else {
            keyVariable = nil
            keyQueryNames = []
        }
        var limits: [RateLimit] = []
        for window in try value.nonNullMember("rate_limits")?.elements() ?? [] {
            let limit = try window.double("limit", in: 0.001...1e9)
            let seconds = try window.double("per_s", in: 0.001...(366 * 86_400))
            limits.append(RateLimit(limit: limit, perSeconds: seconds))
        }
        rateLimits = limits
        let coverage = try value.member("coverage")
        if coverage.kind == .string {
            guard try coverage.string() == "global" else {
                throw JSONError(.typeMismatch(expected: "\"global\" or a box", found: coverage.shortText), path: coverage.path)
            }
            self.coverage = .global
        } else {
            self.coverage = .box(south: try coverage.double("south", in: -90...90), west: try coverage.double("west", in: -180...180),
                                 north: try coverage.double("north", in: -90...90), east: try coverage.double("east", in: -180...180))
        }
        let modeValue = try value.nonNullMember("mode")
        guard let mode = Mode(rawValue: try modeValue?.string() ?? "http") else {
            throw JSONError(.typeMismatch(expected: "\"http\" or \"fetch\"", found: modeValue?.shortText ?? ""), path: modeValue?.path ?? value.path)
        }
        self.mode = mode
        let fresh = try value.nonNullMember("fresh_for_s")
        freshFor = (try fresh?.optionalDouble("current") ?? 600, try fresh?.optionalDouble("forecast") ?? 3600)
    }
}
