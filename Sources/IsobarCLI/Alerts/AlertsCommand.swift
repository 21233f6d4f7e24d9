import FoundationEssentials
import IsobarCore
import IsobarRender

/// `isobar alerts PLACE [--fail-on SEVERITY]`: the official warnings in force at a place, most severe first.
struct AlertsCommand: IsobarCommand {
    typealias Own = FailOnOptions
    static let spec = CommandSpec(
        name: "alerts", summary: "Official weather warnings in force at a place, most severe first, from every alert source",
        arguments: ["PLACE"],
        options: [failOn, Commands.plain, format] + Commands.weather.filter { !AlertsCommand.unusedOptions.contains($0.name) && $0.name != "format" },
        discussion: "PLACE is a known place name or coordinates such as 40.71,-74.01. Alert sources are the configuration's entries of "
            + "type nws-alerts, met-alerts, meteoalarm or openweathermap-alerts (and others that give alerts); a source whose coverage leaves the place out "
            + "is not asked. An Update replaces the warnings it references, a Cancel withdraws them, an expired warning is gone; the same event from two "
            + "sources is shown once, naming both. The issuers' text is shown as sent.")

    /// `--fail-on SEVERITY`, taken by `alerts` and `now`.
    static let failOn = OptionSpec.value("fail-on", "SEVERITY", "exit 10 when a warning at least this severe is in force: minor, moderate, severe or extreme",
                                         choices: AlertThreshold.choices)

    /// `--format`: tables, JSON lines or one CSV row per warning.
    static let format = OptionSpec.value("format", "FORMAT", "table (for people, the default), jsonl (one JSON object per line) or csv (one row per warning)",
                                         choices: OutputFormat.weather.map(\.rawValue))

    /// Weather options that change nothing about warnings.
    static let unusedOptions: Set<String> = ["units", "weights", "bias-correction", "min-providers", "max-age", "refresh", "offline",
                                             "cache-dir", "shared-store"]

    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Gathers the warnings in force at the place from every alert source and writes them in the format asked for.
    func run() async throws -> ExitCode {
        let setup = try await context.weatherSetup(invocation, kinds: [.alerts])
        let resolution = try await context.resolvePlace(invocation.positionals[0], setup: setup, parsed: invocation)
        let gathering = AlertsGathering(bindings: setup.bindings, time: context.time, timeoutSeconds: setup.options.timeoutSeconds,
                                        cache: setup.store, sendsValidators: setup.options.sendsValidators)
        let report = await gathering.report(for: resolution.place)
        context.write(AlertsForms(report: report, query: invocation.positionals[0], plain: invocation.options.plain), as: invocation.options.format)
        context.output.flush()
        context.saveRecordings(setup.recorders, invocation)
        return Self.exitCode(report, failOn: own.failOn)
    }

    /// 10 when a warning at least as severe as `--fail-on` is in force; else 0 when every source asked answered, 2 when some
    /// failed or could not refresh (its kept answer shown), 3 when every one asked failed (sources not asked count for nothing).
    static func exitCode(_ report: AlertsReport, failOn: AlertSeverity?) -> ExitCode {
        if let failOn, report.hasAlert(atLeast: failOn) { return .alertInForce }
        let asked = report.sources.filter { $0.answer != .notAsked && $0.answer != .notRecorded }
        let failed = asked.filter { if case .failed = $0.answer { true } else { false } }
        if !asked.isEmpty && failed.count == asked.count { return .noneAnswered }
        // A source shown from its kept answer could not refresh: some warnings are known, so that is a partial answer.
        let stale = asked.contains { if case .stale = $0.answer { true } else { false } }
        return failed.isEmpty && !stale ? .success : .partial
    }
}

/// The severities `--fail-on` takes.
enum AlertThreshold {
    /// `minor`, `moderate`, `severe`, `extreme`.
    static let choices = [AlertSeverity.minor, .moderate, .severe, .extreme].map { $0.rawValue.lowercased() }
}

/// The warnings' forms: a table or sentences for people, `alert` JSON lines, one CSV row per warning.
struct AlertsForms: CommandReport {
    /// The warnings and their sources.
    let report: AlertsReport
    /// The place as the user typed it (named on every line).
    let query: String
    /// `--plain`: sentences instead of the table.
    let plain: Bool

    /// The table, fitted to `width`, or the sentences.
    func text(width: Int?) -> String { plain ? AlertsPlain().text(report) : AlertsTable(width: width).text(report) }

    /// One `alert` line per warning, after the sources' lines.
    func jsonLines() -> String {
        var lines = AlertLines(query: query)
        return String(decoding: lines.lines(report), as: UTF8.self)
    }

    /// One row per warning.
    func csv() -> String { AlertsCSV.text(report) }
}
