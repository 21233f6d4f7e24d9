import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarRender
import IsobarEngine

/// `isobar air PLACE [--hourly] [--days N] [--chart]`: air quality and pollen from every air source, merged as concentrations, with the
/// indices Isobar computes from them.
struct AirCommand: IsobarCommand {
    typealias Own = HorizonOptions
    static let spec = CommandSpec(
        name: "air", summary: "Air quality and pollen: every air source side by side, merged concentrations, US AQI and European AQI",
        arguments: ["PLACE"],
        options: [.value("days", "N", "also show the worst hour of each day, 1 to 16 days"), .flag("hourly", "also show the next 24 hours")]
            + Commands.chart("the merged PM2.5 over the sources' range, with the US AQI category of each hour") + [Commands.plain]
            + Commands.weather,
        discussion: "Sources are the configuration's air_providers. Concentrations (µg/m³) and pollen counts (grains/m³) are merged like the "
            + "weather; the indices are computed from the merged values with the publishers' breakpoints (see docs/air-quality.md). "
            + "A source's own index is shown as its own, never merged.")

    /// What is asked of each air source.
    static let kinds: Set<DataKind> = [.air, .current, .hourly]

    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Asks every air source, merges, and writes the report in the format asked for.
    func run() async throws -> ExitCode {
        let setup = try await context.weatherSetup(invocation, air: true)
        let resolution = try await context.resolvePlace(invocation.positionals[0], setup: setup, parsed: invocation)
        let place = resolution.place.withZoneOffset(at: context.time.now())
        let report = await Self.gather(place, setup, context)
        let hours = own.hourly ? 24 : 0
        let days = own.daysGiven ? own.days : 0
        let presentation = Presentation(invocation.options, environment: context.environment)
        let chart = presentation.chart ? AirChartStyle(glyphs: presentation.glyphs,
                                                       palette: ChartPalette(enabled: context.output.isTerminal && context.environment["NO_COLOR"] == nil))
            : nil
        context.write(AirForms(report: report.report, hours: hours, days: days, plain: presentation.plain, chart: chart),
                      as: invocation.options.format)
        await setup.shared?.finish()
        context.saveRecordings(setup.recorders, invocation)
        return context.exitCode(report.outcomes, minimum: setup.minimum)
    }

    /// Asks every air source about the place and gathers the report, with how each source's turn ended.
    static func gather(_ place: Place, _ setup: WeatherSetup, _ context: CommandContext) async
        -> (report: AirReport, outcomes: [ProviderOutcome]) {
        var outcomes: [ProviderOutcome] = []
        var events: [EngineEvent<ConsensusResult>] = []
        for await event in context.engine(setup).run(WeatherRequest(place: place, kinds: kinds)) {
            if let outcome = event.outcome { outcomes.append(outcome) }
            events.append(event)
        }
        return (report(place, events, sources: sources(setup), now: context.time.now()), outcomes)
    }

    /// The air sources' ids and names, in configuration order.
    static func sources(_ setup: WeatherSetup) -> [(id: String, name: String)] {
        setup.bindings.map { ($0.provider.id, $0.provider.displayName) }
    }

    /// The report of one place's events: the answers of `sources` and their failures, each in the sources' order whatever
    /// order they came in, and the merge; hours count from the newest answer (a recording's time), else `now`.
    static func report(_ place: Place, _ events: [EngineEvent<ConsensusResult>], sources: [(id: String, name: String)], now: Date) -> AirReport {
        var reports: [WeatherReport] = []
        var failures: [(id: String, message: String)] = []
        var merged: ConsensusResult?
        for event in events {
            switch event {
            case .result(_, let result): reports.append(result.report)
            case .failure(_, let id, let error): failures.append((id, error.message))
            case .consensus(_, let consensus): merged = consensus
            }
        }
        let names = Dictionary(sources.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let order = Dictionary(sources.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        reports.sort { (order[$0.providerID] ?? 0) < (order[$1.providerID] ?? 0) }
        failures.sort { (order[$0.id] ?? 0) < (order[$1.id] ?? 0) }
        return AirReport(place: place, consensus: merged, reports: reports, names: names, failures: failures,
                         now: reports.map(\.fetchedAt).max() ?? now)
    }
}

/// The air report's forms: a table or sentences for people, one `air` JSON line, CSV rows.
struct AirForms: CommandReport {
    /// What was gathered and merged.
    let report: AirReport
    /// Hours shown after now (0 for none).
    let hours: Int
    /// Days whose worst hour is shown (0 for none).
    let days: Int
    /// `--plain`: sentences instead of the table.
    let plain: Bool
    /// `--chart`: the chart's characters and colours, drawn under the table; nil for none.
    var chart: AirChartStyle?

    /// The table fitted to `width` (and the chart under it when asked), or the sentences.
    func text(width: Int?) -> String {
        let text = AirText(report: report, width: width, hours: hours, days: days)
        if plain { return text.plain() }
        guard let chart else { return text.table() }
        return text.table() + "\n" + AirChart(report: report, width: width ?? 80, glyphs: chart.glyphs, palette: chart.palette).render()
    }

    /// The `air` line, with the hours asked (a day is 24 of them).
    func jsonLines() -> String { AirLines.line(report, hours: max(hours, days * 24)) }

    /// One row per source and hour.
    func csv() -> String { AirLines.csv(report, hours: max(hours, days * 24)) }
}

/// How `isobar air --chart` draws: its characters and colours.
struct AirChartStyle {
    /// Unicode or ASCII.
    var glyphs: ChartGlyphs
    /// Colours, when the output is a terminal that wants them.
    var palette: ChartPalette
}
