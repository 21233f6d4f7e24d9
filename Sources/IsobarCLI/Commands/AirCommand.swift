import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine

/// `isobar air PLACE [--hourly] [--days N]`: air quality and pollen from every air source, merged as concentrations, with the
/// indices Isobar computes from them.
enum AirCommand: IsobarCommand {
    static let spec = CommandSpec(
        name: "air", summary: "Air quality and pollen: every air source side by side, merged concentrations, US AQI and European AQI",
        arguments: ["PLACE"],
        options: [.value("days", "N", "also show the worst hour of each day, 1 to 16 days"), .flag("hourly", "also show the next 24 hours")]
            + [Commands.plain] + Commands.weather,
        discussion: "Sources are the configuration's air_providers. Concentrations (µg/m³) and pollen counts (grains/m³) are merged like the "
            + "weather; the indices are computed from the merged values with the publishers' breakpoints (see docs/air-quality.md). "
            + "A source's own index is shown as its own, never merged.")

    /// What is asked of each air source.
    static let kinds: Set<DataKind> = [.air, .current, .hourly]

    static func run(_ invocation: Invocation, on cli: IsobarCommandLine) async throws -> ExitCode {
        let setup = try await cli.weatherSetup(invocation, air: true)
        let resolution = try await cli.resolvePlace(invocation.positionals[0], setup: setup, parsed: invocation)
        let place = resolution.place.withZoneOffset(at: cli.time.now())
        let report = await gather(place, setup, cli)
        let hours = invocation.options.hourly ? 24 : 0
        let days = invocation.options.daysGiven ? invocation.options.days : 0
        let presentation = Presentation(invocation.options, environment: cli.environment)
        switch invocation.options.format {
        case .jsonl: cli.output.write(AirLines.line(report.report, hours: max(hours, days * 24)))
        case .csv: cli.output.write(AirLines.csv(report.report, hours: max(hours, days * 24)))
        case .table:
            let text = AirText(report: report.report, width: cli.width, hours: hours, days: days)
            cli.output.write(presentation.plain ? text.plain() : text.table())
        }
        await setup.shared?.finish()
        cli.saveRecordings(setup.recorders, invocation)
        return cli.exitCode(report.outcomes, minimum: setup.minimum)
    }

    /// Asks every air source about the place and gathers the report, with how each source's turn ended.
    static func gather(_ place: Place, _ setup: IsobarCommandLine.WeatherSetup, _ cli: IsobarCommandLine) async
        -> (report: AirReport, outcomes: [ProviderOutcome]) {
        var outcomes: [ProviderOutcome] = []
        var reports: [WeatherReport] = []
        var failures: [(id: String, message: String)] = []
        var merged: ConsensusResult?
        for await event in cli.engine(setup).run(WeatherRequest(place: place, kinds: kinds)) {
            if let outcome = event.outcome { outcomes.append(outcome) }
            switch event {
            case .result(_, let result): reports.append(result.report)
            case .failure(_, let id, let error): failures.append((id, error.message))
            case .consensus(_, let consensus): merged = consensus
            }
        }
        let names = Dictionary(setup.bindings.map { ($0.provider.id, $0.provider.displayName) }, uniquingKeysWith: { first, _ in first })
        let order = Dictionary(setup.bindings.enumerated().map { ($1.provider.id, $0) }, uniquingKeysWith: { first, _ in first })
        reports.sort { (order[$0.providerID] ?? 0) < (order[$1.providerID] ?? 0) }
        let report = AirReport(place: place, consensus: merged, reports: reports, names: names, failures: failures,
                               now: reports.map(\.fetchedAt).max() ?? cli.time.now())
        return (report, outcomes)
    }
}
