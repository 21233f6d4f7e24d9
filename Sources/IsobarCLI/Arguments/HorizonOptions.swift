/// `forecast` and `air`: how far ahead, `--days` and `--hourly`.
struct HorizonOptions: OwnOptions {
    /// The options it reads.
    static let names = ["days", "hourly"]
    /// `--days`: days shown, 1 to 16 (default 7).
    var days = 7
    /// True when `--days` was given (`air` shows days only when asked).
    var daysGiven = false
    /// `--hourly`: also hour by hour.
    var hourly = false

    /// The defaults.
    init() {}

    /// Reads them from what was given.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        hourly = parsed.has("hourly")
        if let days = try Self.days(parsed) {
            self.days = days
            daysGiven = true
        }
    }

    /// `--days` as a whole number from 1 to 16, nil when not given (also read by `batch`).
    static func days(_ parsed: ParsedArguments) throws(UsageError) -> Int? {
        guard let text = parsed["days"] else { return nil }
        guard let days = Int(text), (1...16).contains(days) else { throw UsageError("--days takes a whole number from 1 to 16, not '\(text)'") }
        return days
    }
}
