import IsobarCore
import IsobarRender

/// A provider's weight given with `--weights`.
public struct WeightOverride: Sendable, Equatable {
    /// The provider id, checked against the configuration when it is loaded.
    public var provider: String
    /// The weight, 0 or more.
    public var weight: Double
}

/// The options many commands share, typed and validated before anything runs (a command's own are its `OwnOptions`); options a
/// command does not take keep their defaults.
public struct CommandOptions: Sendable, Equatable {
    /// `--format`.
    public var format = OutputFormat.table
    /// `--units`; nil for the configuration's.
    public var units: UnitSystem?
    /// `--providers`: the ids to ask; nil for every enabled provider.
    public var providers: [String]?
    /// `--config`.
    public var configFile: String?
    /// `--demo`.
    public var demo = false
    /// `--record DIR`.
    public var recordDirectory: String?
    /// `--replay DIR`.
    public var replayDirectory: String?
    /// `--timeout`: seconds the command may take.
    public var timeoutSeconds: Double?
    /// `--max-age`.
    public var maxAgeSeconds: Double?
    /// `--refresh`.
    public var refresh = false
    /// `--offline`.
    public var offline = false
    /// `--cache-dir`.
    public var cacheDirectory: String?
    /// `--shared-store`.
    public var sharedStore: String?
    /// `--min-providers`.
    public var minimumProviders: Int?
    /// `--weights`, in the order given.
    public var weights: [WeightOverride] = []
    /// `--weights auto` or `--weights equal`: learned or configured weights, over the configuration's `weights`.
    public var weighting: WeightsMode?
    /// `--bias-correction`: subtract each source's learned bias (with learned weights).
    public var biasCorrection = false
    /// `--verbose`.
    public var verbose = false
    /// `--help`.
    public var help = false
    /// `--chart` (compare, forecast, home): the next 48 hours drawn under the tables.
    public var chart = false
    /// `--plain` (compare, now, forecast, cities, home): sentences instead of tables.
    public var plain = false
    /// `--ascii` (with `--chart`): the chart in ASCII characters only, whatever the locale.
    public var ascii = false

    /// Defaults only.
    public init() {}

    /// Reads and checks every option given; the first problem is a usage error.
    public init(_ parsed: ParsedArguments) throws(UsageError) {
        help = parsed.has("help")
        if let text = parsed["format"] { format = OutputFormat(rawValue: text) ?? .table }
        if parsed.has("json") { format = .jsonl }
        units = parsed["units"].flatMap(UnitSystem.init(rawValue:))
        configFile = parsed["config"]
        demo = parsed.has("demo")
        recordDirectory = parsed["record"]
        replayDirectory = parsed["replay"]
        refresh = parsed.has("refresh")
        offline = parsed.has("offline")
        verbose = parsed.has("verbose")
        cacheDirectory = parsed["cache-dir"]
        sharedStore = parsed["shared-store"]
        guard !help else { return }
        if demo && configFile != nil { throw UsageError("--demo and --config cannot be used together") }
        if recordDirectory != nil && (demo || replayDirectory != nil) {
            throw UsageError("--record asks live providers; it cannot be used with --demo or --replay")
        }
        if offline && (refresh || recordDirectory != nil) {
            throw UsageError("--offline uses only the cache; it cannot be used with --refresh or --record")
        }
        if parsed.has("json"), let text = parsed["format"], text != OutputFormat.jsonl.rawValue {
            throw UsageError("--json means --format jsonl; it cannot be used with --format \(text)")
        }
        if let text = parsed["timeout"] {
            guard let seconds = DurationText.seconds(text), seconds > 0, seconds <= 600 else {
                throw UsageError("--timeout takes a duration up to 10 minutes (30, 30s, 2m), not '\(text)'")
            }
            timeoutSeconds = seconds
        }
        if let text = parsed["max-age"] {
            guard let seconds = DurationText.seconds(text), seconds >= 0 else {
                throw UsageError("--max-age takes a duration (90, 90s, 15m, 1h, 2d), not '\(text)'")
            }
            maxAgeSeconds = seconds
        }
        if let text = parsed["min-providers"] {
            guard let count = Int(text), count >= 1 else { throw UsageError("--min-providers takes a whole number of at least 1, not '\(text)'") }
            minimumProviders = count
        }
        try readPresentationOptions(parsed)
        if let list = parsed["providers"] {
            let wanted = list.split(separator: ",").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
            guard !wanted.isEmpty else { throw UsageError("--providers needs at least one provider id") }
            providers = wanted
        }
        if let text = parsed["weights"] {
            if let mode = WeightsMode(rawValue: text) { weighting = mode } else { weights = try Self.weights(text) }
        }
        biasCorrection = parsed.has("bias-correction")
    }

    private mutating func readPresentationOptions(_ parsed: ParsedArguments) throws(UsageError) {
        chart = parsed.has("chart")
        plain = parsed.has("plain")
        ascii = parsed.has("ascii")
        for (flag, given) in [("chart", chart), ("plain", plain)] where given && format != .table {
            throw UsageError("--\(flag) is for people reading; it cannot be used with --format \(format.rawValue)")
        }
        if chart && plain { throw UsageError("--plain writes sentences without charts; it cannot be used with --chart") }
        if ascii && !chart { throw UsageError("--ascii chooses the characters of a chart; it needs --chart") }
    }

    private static func weights(_ text: String) throws(UsageError) -> [WeightOverride] {
        var weights: [WeightOverride] = []
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces() }
            guard parts.count == 2, let weight = Double(parts[1]), weight >= 0, weight.isFinite else {
                throw UsageError("--weights takes auto, equal, or id=weight pairs such as ID=2, not '\(pair)'")
            }
            weights.append(WeightOverride(provider: parts[0], weight: weight))
        }
        return weights
    }
}

/// A command as given: its description, its positional arguments, the shared options and its own, typed.
public struct Invocation: Sendable {
    /// The command.
    public var command: CommandSpec
    /// Positional arguments in order.
    public var positionals: [String]
    /// The shared options.
    public var options: CommandOptions
    /// Its own options (see `IsobarCommand.Own`).
    let ownOptions: any OwnOptions

    /// Parses and validates `arguments` for `command`, whose own options are read by `Own`.
    init<Own: OwnOptions>(_ arguments: [String], command: CommandSpec, own: Own.Type) throws(UsageError) {
        var parsed = try ArgumentParser.parse(arguments, command: command, options: command.options)
        self.command = command
        positionals = parsed.positionals
        // Its own options are its alone: read by it, then taken out of what the shared options read.
        ownOptions = parsed.has("help") ? Own() : try Own(parsed)
        for name in Own.names { parsed.options.removeValue(forKey: name) }
        options = try CommandOptions(parsed)
    }

    /// Parses and validates `arguments` for a command without options of its own; options of a command's own (`--days`,
    /// `--limit`…) are left unread: read those with the command's `invocation(_:)`.
    public init(_ arguments: [String], command: CommandSpec) throws(UsageError) {
        try self.init(arguments, command: command, own: NoOwnOptions.self)
    }

    /// A command with no arguments and default options.
    public init(command: CommandSpec) {
        self.command = command
        positionals = []
        options = CommandOptions()
        ownOptions = NoOwnOptions()
    }

    /// Its own options, when they are `Own` (the defaults otherwise: it was read for another command).
    func own<Own: OwnOptions>(_ type: Own.Type) -> Own { ownOptions as? Own ?? Own() }
}
