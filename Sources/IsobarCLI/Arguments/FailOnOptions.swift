import IsobarCore

/// `alerts` and `now`: `--fail-on`, the least severe warning that makes the command exit 10.
struct FailOnOptions: OwnOptions {
    /// The options it reads.
    static let names = ["fail-on"]
    /// The threshold; nil without `--fail-on`.
    var failOn: AlertSeverity?

    /// The defaults.
    init() {}

    /// Reads it from what was given (its spec keeps the value to the severities).
    init(_ parsed: ParsedArguments) { failOn = parsed["fail-on"].map { AlertSeverity(cap: $0) } }
}
