/// `batch`: `--kind`, `--days`, `--jobs`, `--order`, `--deadline` and `--quiet`.
struct BatchOptions: OwnOptions {
    /// The options it reads.
    static let names = ["kind", "days", "jobs", "order", "deadline", "quiet"]
    /// `--kind`: what each place is asked.
    var kind = BatchKind.current
    /// `--days`: days given for hourly and daily, 1 to 16 (default 7).
    var days = 7
    /// True when `--days` was given (an air batch gives hours only when asked).
    var daysGiven = false
    /// `--jobs`: calls in flight to each provider at once, over up to twice as many places.
    var jobs = 8
    /// `--order`: lines as places complete, or in input order.
    var order = BatchOrder.completion
    /// `--deadline`: seconds the whole run may take; nil for none.
    var deadlineSeconds: Double?
    /// `--quiet`: no progress line.
    var quiet = false

    /// The defaults.
    init() {}

    /// Reads them from what was given (their specs keep `--kind` and `--order` to their choices).
    init(_ parsed: ParsedArguments) throws(UsageError) {
        quiet = parsed.has("quiet")
        if let text = parsed["kind"] { kind = BatchKind(rawValue: text) ?? .current }
        if let text = parsed["order"] { order = BatchOrder(rawValue: text) ?? .completion }
        if let days = try HorizonOptions.days(parsed) {
            self.days = days
            daysGiven = true
        }
        if let text = parsed["jobs"] {
            guard let jobs = Int(text), (1...256).contains(jobs) else { throw UsageError("--jobs takes a whole number from 1 to 256, not '\(text)'") }
            self.jobs = jobs
        }
        if let text = parsed["deadline"] {
            guard let seconds = DurationText.seconds(text), seconds > 0, seconds <= 366 * 86_400 else {
                throw UsageError("--deadline takes a duration up to a year (90, 90s, 15m, 1h, 2d), not '\(text)'")
            }
            deadlineSeconds = seconds
        }
    }
}
