import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarRender

/// `isobar cities` (and `isobar cities list`): the consensus temperature and condition now of every city, fetched concurrently.
struct CitiesListCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// The consensus now for every city, fetched concurrently (cached answers are reused; only stale ones are asked again).
    func run() async throws -> ExitCode {
        let access = try await CitiesAccess.open(context, invocation, for: "list",
                                                 tooMany: "'cities' lists your cities; to add one: isobar cities add PLACE")
        let (cities, setup) = (access.cities, access.setup)
        guard !cities.isEmpty else {
            // JSON lines: no city, no line.
            context.write(TextReport(people: { _ in "You have no cities. Add one: isobar cities add PLACE\n" }, lines: { "" }), as: invocation.options.format)
            return .success
        }
        var consensus = [ConsensusResult?](repeating: nil, count: cities.count)
        var outcomes = [[(provider: String, outcome: ProviderOutcome)]](repeating: [], count: cities.count)
        var failures = [[(provider: String, error: ProviderError)]](repeating: [], count: cities.count)
        // Providers whose coverage leaves a city out: not asked about it, so not counted among those asked.
        var notAsked = [Set<String>](repeating: [], count: cities.count)
        var recordings: [String: Date] = [:]
        let waiting = WaitingNotice(sink: context.errors)
        let live = setup.bindings.filter { $0.policy != nil }.count
        if live > 0 { waiting.start("asking \(live) provider\(live == 1 ? "" : "s") about \(cities.count) cities…", time: context.time) }
        for await event in context.engine(setup).run(cities.map { WeatherRequest(place: $0, kinds: [.current]) }) {
            let index = event.request.id.rawValue
            guard !event.isOutsideCoverage else {
                if let provider = event.providerID { notAsked[index].insert(provider) }
                continue
            }
            if let outcome = event.outcome, let provider = event.providerID { outcomes[index].append((provider, outcome)) }
            switch event {
            case .consensus(_, let merged): consensus[index] = merged
            case .failure(_, let provider, let error): failures[index].append((provider, error))
            case .result(_, let result):
                if case .replay(let recordedAt) = result.report.source { recordings[result.report.providerID] = recordedAt }
            }
        }
        waiting.stop()
        await setup.shared?.finish()
        let results = cities.indices.map { ($0, consensus[$0], outcomes[$0]) }
        // Sources asked about each city: every model of an Open-Meteo entry counts, as the consensus counts them.
        let asked = notAsked.map { skipped in
            setup.bindings.filter { !skipped.contains($0.provider.id) }.reduce(0) { $0 + $1.provider.sources.count }
        }
        let units = setup.units
        context.write(TextReport(people: { width in
            if Presentation(invocation.options, environment: context.environment).plain {
                let name = { (id: String) in setup.bindings.first { $0.provider.id == id }?.provider.displayName ?? id }
                let country = context.countryNames()
                return "Your cities, now:\n" + results.map { index, consensus, _ in
                    PlainCities.sentence(number: index + 1, place: cities[index].spokenLabel(country: country(cities[index].countryCode)),
                                         consensus: consensus, asked: asked[index], units: units, failures: failures[index], name: name)
                }.joined() + replayNotice(recordings, setup).replacing("\n", with: ".\n")
            } else {
                let notes = CityFailureNotes(failures, name: { id in setup.bindings.first { $0.provider.id == id }?.provider.displayName ?? id },
                                             demoPlaces: setup.demo ? context.demoPlaceNames() : nil)
                let columns = TableColumns<TableLayouts.Cities, (Int, ConsensusResult?, [(provider: String, outcome: ProviderOutcome)])>([
                    ColumnSpec(.number, "#") { String($0.0 + 1) },
                    ColumnSpec(.city, "City", left: true) { cities[$0.0].fullLabel },
                    ColumnSpec(.now, "Now \(units.symbol(.temperature))") { row in
                        row.1?.current?.values[.temperature].map { TableRenderer.fixed(units.convert($0.value, .temperature), decimals: 1) } ?? "–"
                    },
                    ColumnSpec(.condition, "Condition", left: true) { $0.1?.current?.condition?.value.label ?? "–" },
                    ColumnSpec(.providers, "Providers", short: "Prov.") { "\($0.1?.providers.count ?? 0)/\(asked[$0.0])" },
                    ColumnSpec(.from, "From", left: true) { Set($0.2.map(\.outcome.rawValue)).sorted().joined(separator: ", ") + notes.markers(city: $0.0) },
                ])
                let table = columns.table(results, narrowing: TableLayouts.cities(columns))
                return table.render(width: width) + TextWrap.fit(notes.footnotes + replayNotice(recordings, setup), width: width)
            }
        }, lines: {
            var written = ""
            for (index, consensus, outcomes) in results {
                let current = consensus?.current
                written += JSONLine.text("city", [
                    ("index", .integer(index + 1)), ("place", PlaceJSON.object(cities[index])),
                    ("units", .object([("temperature", .string(units.symbol(.temperature)))])),
                    ("temperature", .number(current?.values[.temperature].map { OutputNumber.converted($0.value, .temperature, units) })),
                    ("condition", .string(current?.condition?.value.id)),
                    ("providers", .array((consensus?.providers ?? []).map(JSONOutput.string))),
                    ("outcomes", .array(inDisplayOrder(outcomes, setup).map { .object([("provider", .string($0.provider)), ("status", .string($0.outcome.rawValue))]) })),
                ] + (failures[index].isEmpty ? [] : [("failures", .array(failures[index].map { failure in
                    .object([("provider", .string(failure.provider)), ("code", .string(failure.error.codeName)),
                             ("reason", .string(failure.error.reason?.rawValue)), ("message", .string(failure.error.message))])
                }))]))
            }
            return written
        }), as: invocation.options.format)
        return context.exitCode(results.flatMap { $0.2.map(\.outcome) }, minimum: nil)
    }

    /// Provider outcomes in the order the providers are configured, whatever order they finished in.
    private func inDisplayOrder(_ outcomes: [(provider: String, outcome: ProviderOutcome)], _ setup: WeatherSetup) -> [(provider: String, outcome: ProviderOutcome)] {
        let order = setup.bindings.map(\.provider.id)
        return outcomes.sorted { (order.firstIndex(of: $0.provider) ?? .max) < (order.firstIndex(of: $1.provider) ?? .max) }
    }

    /// `Replayed data, not live: …`, as under every other table.
    private func replayNotice(_ recordings: [String: Date], _ setup: WeatherSetup) -> String {
        let replays = setup.bindings.flatMap(\.provider.sources).compactMap { source in
            recordings[source.id].map { (name: source.name, recordedAt: $0) }
        }
        return ReplayNotice.clauses(replays).map { "Replayed data, not live: \($0)\n" } ?? ""
    }
}
