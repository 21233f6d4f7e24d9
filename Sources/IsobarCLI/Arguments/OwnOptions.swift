/// The options of its own a command reads, beside the shared ones of `CommandOptions`, typed: read and checked from what
/// was given before the command runs, and handed only to that command (see `IsobarCommand.Own`). Their help lines are in
/// the command's spec, which lists every option it takes in help order.
protocol OwnOptions: Sendable {
    /// The long names of the options it reads; the shared options never see them.
    static var names: [String] { get }
    /// The defaults (what `--help` runs with).
    init()
    /// Reads and checks the options given; the first problem is a usage error.
    init(_ parsed: ParsedArguments) throws(UsageError)
}

/// A command with no options of its own.
struct NoOwnOptions: OwnOptions {
    /// None.
    static let names: [String] = []
    /// Nothing to keep.
    init() {}
    /// Nothing to read.
    init(_ parsed: ParsedArguments) {}
}

/// `search`: `--limit` and `--add`.
struct SearchOptions: OwnOptions {
    /// The options it reads.
    static let names = ["limit", "add"]
    /// `--limit`: the most places shown.
    var limit = 10
    /// `--add`: the best match goes into the cities.
    var add = false

    /// The defaults.
    init() {}

    /// Reads them from what was given.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        add = parsed.has("add")
        if let text = parsed["limit"] {
            guard let limit = Int(text), (1...50).contains(limit) else { throw UsageError("--limit takes a whole number from 1 to 50, not '\(text)'") }
            self.limit = limit
        }
    }
}

/// `cache`: `--shared` (clear) and `--older-than` (prune).
struct CacheOptions: OwnOptions {
    /// The options it reads.
    static let names = ["shared", "older-than"]
    /// `--shared`: clear the shared store's answers instead of the local ones.
    var shared = false
    /// `--older-than`, in seconds: prune what was fetched longer ago (default a day, the stale limit).
    var olderThanSeconds = 86_400.0

    /// The defaults.
    init() {}

    /// Reads them from what was given.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        shared = parsed.has("shared")
        olderThanSeconds = try Self.olderThan(parsed) ?? olderThanSeconds
    }

    /// `--older-than` as seconds, nil when not given.
    static func olderThan(_ parsed: ParsedArguments) throws(UsageError) -> Double? {
        guard let text = parsed["older-than"] else { return nil }
        guard let seconds = DurationText.seconds(text), seconds >= 0, seconds <= 10 * 366 * 86_400 else {
            throw UsageError("--older-than takes a duration up to ten years (90, 90s, 15m, 1h, 2d), not '\(text)'")
        }
        return seconds
    }
}

/// `archive`: `--older-than` (prune).
struct ArchiveOptions: OwnOptions {
    /// The options it reads.
    static let names = ["older-than"]
    /// `--older-than`, in seconds; nil for the configuration's `archive_days`.
    var olderThanSeconds: Double?

    /// The defaults.
    init() {}

    /// Reads them from what was given.
    init(_ parsed: ParsedArguments) throws(UsageError) { olderThanSeconds = try CacheOptions.olderThan(parsed) }
}

/// `verify`: `--field`.
struct VerifyOptions: OwnOptions {
    /// The options it reads.
    static let names = ["field"]
    /// The quantity checked.
    var field = "temperature"

    /// The defaults.
    init() {}

    /// Reads them from what was given.
    init(_ parsed: ParsedArguments) { field = parsed["field"] ?? field }
}

/// `learn`: `--days`, the past days learned from.
struct LearnOptions: OwnOptions {
    /// The options it reads.
    static let names = ["days"]
    /// 1 to `LearnCommand.maximumDays`; nil when not given.
    var days: Int?

    /// The defaults.
    init() {}

    /// Reads them from what was given.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard let text = parsed["days"] else { return }
        guard let days = Int(text), (1...LearnCommand.maximumDays).contains(days) else {
            throw UsageError("--days takes a whole number from 1 to \(LearnCommand.maximumDays), not '\(text)'")
        }
        self.days = days
    }
}

/// `providers`: `--available`, and `--lang` and `--dir` of `providers new`.
struct ProvidersOptions: OwnOptions {
    /// The options it reads.
    static let names = ["available", "lang", "dir"]
    /// `--available`: list the plug-in programs found, without running them.
    var available = false
    /// `--lang`: the skeleton's language, as given.
    var language: String?
    /// `--dir`: where the skeleton goes.
    var directory: String?

    /// The defaults.
    init() {}

    /// Reads them from what was given.
    init(_ parsed: ParsedArguments) {
        available = parsed.has("available")
        language = parsed["lang"]
        directory = parsed["dir"]
    }
}

/// `completions`: `--words`.
struct CompletionsOptions: OwnOptions {
    /// The options it reads.
    static let names = ["words"]
    /// `--words KIND`: print the words offered for this kind instead of the script.
    var words: String?

    /// The defaults.
    init() {}

    /// Reads them from what was given.
    init(_ parsed: ParsedArguments) { words = parsed["words"] }
}
