/// Process exit codes; the man page (docs/isobar.1) and docs/guide.md document each.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Every provider answered.
    case success = 0
    /// A bug: something failed that should not have.
    case internalError = 1
    /// Some providers failed (or answered only from a stale cache); output holds both.
    case partial = 2
    /// No provider answered.
    case noneAnswered = 3
    /// Fewer providers answered than `--min-providers` asks for.
    case quorumNotMet = 4
    /// `providers check`: the provider broke at least one conformance rule; `doctor`: at least one check failed.
    case checkFailed = 5
    /// `archive import`: some lines are not archive export lines; nothing was imported.
    case badImport = 6
    /// `alerts` or `now` with `--fail-on SEVERITY`: a warning at least that severe is in force.
    case alertInForce = 10
    /// The command line is wrong (unknown command or option, bad option value).
    case usage = 64
    /// The place is unknown or its coordinates are invalid.
    case badPlace = 65
    /// The batch input file cannot be read (missing, a directory, not permitted).
    case noInput = 66
    /// Interrupted (SIGINT): a batch stopped taking places and printed its summary.
    case interrupted = 130
    /// The output's reader went away (a closed pipe): the command finished its work (a batch stopped taking places) and
    /// ended quietly, with the status a SIGPIPE would have given it.
    case outputClosed = 141
    /// The configuration (file, provider entries, cassettes) cannot be used, or the user's cities and home cannot be read or saved.
    case configuration = 78
}
