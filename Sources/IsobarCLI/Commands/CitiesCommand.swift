import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarPlaces
import IsobarStore

extension IsobarCommandLine {
    /// `isobar cities`, `isobar cities add PLACE`, `isobar cities remove PLACE|NUMBER`.
    func runCities(_ parsed: Invocation) async throws -> ExitCode {
        let action = parsed.positionals.first ?? "list"
        let actions = ["list", "add", "remove"]
        guard actions.contains(action) else {
            let suggestion = Spelling.closest(to: action, in: actions).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("unknown cities action '\(action)'\(suggestion); actions are list, add, remove")
        }
        if action != "list" && parsed.positionals.count < 2 { throw UsageError("'cities \(action)' needs a PLACE") }
        if action == "list" && parsed.positionals.count > 1 { throw UsageError("'cities' lists your cities; to add one: isobar cities add PLACE") }
        let setup = try await weatherSetup(parsed)
        let store = try await placesStore(setup, parsed)
        let cities = try await store.favourites(seed: seedCities(), now: time.now())
        switch action {
        case "add":
            let text = parsed.positionals[1]
            let resolution = try await resolvePlace(text, setup: setup, parsed: parsed, announce: false)
            if !resolution.runnersUp.isEmpty && resolution.source == "gazetteer" {
                let options = ([resolution.place] + resolution.runnersUp).prefix(5).map(\.fullLabel)
                throw PlaceError("'\(text.trimmingSpaces())' could be \(options.joined(separator: "; ")); add one with a qualifier, e.g. \"\(resolution.place.name), \(resolution.place.countryCode ?? "CC")\"")
            }
            let addition = try await store.addFavourite(resolution.place, now: time.now())
            if parsed.options.format == .jsonl {
                let (position, already) = switch addition {
                case .added(let position): (position, false)
                case .alreadyThere(let position): (position, true)
                }
                output.write(line("city_added", [("index", .integer(position)), ("place", Self.placeJSON(resolution.place)),
                                                 ("already_there", .bool(already))]))
                return .success
            }
            switch addition {
            case .added(let position): output.write("Added \(resolution.place.fullLabel) as city number \(position).\n")
            case .alreadyThere(let position): output.write("\(resolution.place.fullLabel) is already city number \(position).\n")
            }
            return .success
        case "remove":
            let text = parsed.positionals[1]
            let position: Int
            if let number = Int(text.trimmingSpaces()) {
                position = number
            } else {
                let folded = PlaceDirectory.fold(text.trimmingSpaces())
                guard let index = cities.firstIndex(where: { PlaceDirectory.fold($0.name) == folded || PlaceDirectory.fold($0.fullLabel) == folded }) else {
                    throw PlaceError("'\(text.trimmingSpaces())' is not one of your cities (\(cities.map(\.name).joined(separator: ", ")))")
                }
                position = index + 1
            }
            guard let removed = try await store.removeFavourite(at: position) else {
                throw PlaceError("there is no city number \(position); you have \(cities.count)")
            }
            output.write(parsed.options.format == .jsonl
                ? line("city_removed", [("index", .integer(position)), ("place", Self.placeJSON(removed))])
                : "Removed \(removed.fullLabel).\n")
            return .success
        default:
            return await listCities(cities, setup, parsed)
        }
    }

    /// The consensus now for every city, fetched concurrently (cached answers are reused; only stale ones are asked again).
    private func listCities(_ cities: [Place], _ setup: WeatherSetup, _ parsed: Invocation) async -> ExitCode {
        guard !cities.isEmpty else {
            output.write("You have no cities. Add one: isobar cities add PLACE\n")
            return .success
        }
        var consensus = [ConsensusResult?](repeating: nil, count: cities.count)
        var outcomes = [[ProviderOutcome]](repeating: [], count: cities.count)
        for await event in engine(setup).run(cities.map { WeatherRequest(place: $0, kinds: [.current]) }) {
            let index = event.request.id.rawValue
            if let outcome = event.outcome { outcomes[index].append(outcome) }
            if case .consensus(_, let merged) = event { consensus[index] = merged }
        }
        let results = cities.indices.map { ($0, consensus[$0], outcomes[$0]) }
        let units = setup.units
        if parsed.options.format == .jsonl {
            for (index, consensus, outcomes) in results {
                let current = consensus?.current
                output.write(line("city", [
                    ("index", .integer(index + 1)), ("place", Self.placeJSON(cities[index])),
                    ("units", .object([("temperature", .string(units.symbol(.temperature)))])),
                    ("temperature", .number(current?.values[.temperature].map { OutputNumber.converted($0.value, .temperature, units) })),
                    ("condition", .string(current?.condition?.value.id)),
                    ("providers", .array((consensus?.providers ?? []).map(JSONOutput.string))),
                    ("outcomes", .array(outcomes.map { .string($0.rawValue) })),
                ]))
            }
        } else {
            var table = TextTable(header: ["#", "City", "Now \(units.symbol(.temperature))", "Condition", "Providers", "From"])
            table.leftAligned = [1, 3, 5]
            table.narrowing = TableLayouts.cities
            for (index, consensus, outcomes) in results {
                let current = consensus?.current
                let temperature = current?.values[.temperature].map { TableRenderer.fixed(units.convert($0.value, .temperature), decimals: 1) } ?? "–"
                let from = Set(outcomes.map(\.rawValue)).sorted().joined(separator: ", ")
                table.rows.append([String(index + 1), cities[index].fullLabel, temperature, current?.condition?.value.label ?? "–",
                                   "\(consensus?.providers.count ?? 0)/\(setup.bindings.count)", from])
            }
            output.write(table.render(width: width))
        }
        return exitCode(results.flatMap(\.2), minimum: nil)
    }
}
