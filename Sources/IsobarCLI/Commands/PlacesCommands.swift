import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarPlaces
import IsobarStore

extension IsobarCommandLine {
    /// The store that keeps favourites and home: opened even when every provider replays.
    private func placesStore(_ setup: WeatherSetup, _ parsed: Invocation) async throws -> Store {
        if let store = setup.store { return store }
        guard let store = await openStore(parsed, setup.configuration) else {
            throw ConfigurationError("no store for your cities: set XDG_CACHE_HOME or HOME, or pass --cache-dir")
        }
        return store
    }

    /// The first run's cities.
    private func seedCities() -> [Place] {
        guard let bundled = try? places() else { return [] }
        return ["Minsk", "Moscow"].compactMap { bundled.lookup($0) }
    }

    /// `isobar search TEXT [--limit N] [--add]`.
    func runSearch(_ parsed: Invocation) async throws -> ExitCode {
        let limit = parsed.options.limit
        let text = parsed.positionals[0]
        guard try PlaceDirectory.validate(text).count >= 2 || PlaceDirectory.isCoordinateLike(text) else {
            throw PlaceError("type at least 2 characters to search")
        }
        let resolver = try placeResolver()
        var results: [(place: Place, detail: String)]
        if let coordinate = try PlaceDirectory.coordinate(try PlaceDirectory.validate(text)) {
            let name = "\(JSONOutput.format(coordinate.latitude)),\(JSONOutput.format(coordinate.longitude))"
            results = [(Place(name: name, coordinate: coordinate), "coordinates")]
        } else {
            results = try resolver.search(text, limit: limit).map { match in
                (match.place, match.population > 0 ? "\(match.kind), population \(match.population)" : "\(match.kind)")
            }
            if let bundled = resolver.bundled.lookup(text) {
                // The bundled entry stands for the gazetteer's (within about a kilometre).
                results.removeAll { abs($0.place.coordinate.latitude - bundled.coordinate.latitude) < 0.01
                    && abs($0.place.coordinate.longitude - bundled.coordinate.longitude) < 0.01 }
                results.insert((bundled, "bundled"), at: 0)
            }
        }
        var setup: WeatherSetup?
        if results.isEmpty {
            let prepared = try await weatherSetup(parsed)
            setup = prepared
            if networkTransport(prepared, parsed) != nil, let found = try? await resolvePlace(text, setup: prepared, parsed: parsed) {
                results = ([found.place] + found.runnersUp).prefix(limit).map { ($0, found.source) }
            }
        }
        guard !results.isEmpty else { throw PlaceError("no place matches '\(text.trimmingSpaces())'") }
        if parsed.options.format == .jsonl {
            for (index, result) in results.enumerated() {
                output.write(line("place", [("rank", .integer(index + 1)), ("place", Self.placeJSON(result.place)), ("match", .string(result.detail))]))
            }
        } else {
            var table = TextTable(header: ["#", "Place", "Admin area", "Country", "Latitude", "Longitude", "Time zone", "Match"])
            table.leftAligned = [1, 2, 3, 6, 7]
            for (index, result) in results.enumerated() {
                let place = result.place
                table.rows.append([String(index + 1), place.name, place.adminArea ?? "", place.countryCode ?? "",
                                   JSONOutput.format(place.coordinate.latitude), JSONOutput.format(place.coordinate.longitude),
                                   place.timeZoneIdentifier ?? "", result.detail])
            }
            output.write(table.render())
        }
        guard parsed.options.add else { return .success }
        let prepared: WeatherSetup
        if let setup { prepared = setup } else { prepared = try await weatherSetup(parsed) }
        let store = try await placesStore(prepared, parsed)
        let chosen = results[0].place
        _ = try await store.favourites(seed: seedCities(), now: time.now())
        switch try await store.addFavourite(chosen, now: time.now()) {
        case .added(let position): errors.write("isobar: added \(chosen.fullLabel) to your cities as number \(position)\n")
        case .alreadyThere(let position): errors.write("isobar: \(chosen.fullLabel) is already your city number \(position)\n")
        }
        output.write("\n")
        return await showWeather(.detail, Resolution(place: chosen, runnersUp: [], source: "search"), prepared, parsed)
    }

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
            for (index, consensus, outcomes) in results {
                let current = consensus?.current
                let temperature = current?.values[.temperature].map { TableRenderer.fixed(units.convert($0.value, .temperature), decimals: 1) } ?? "–"
                let from = Set(outcomes.map(\.rawValue)).sorted().joined(separator: ", ")
                table.rows.append([String(index + 1), cities[index].fullLabel, temperature, current?.condition?.value.label ?? "–",
                                   "\(consensus?.providers.count ?? 0)/\(setup.bindings.count)", from])
            }
            output.write(table.render())
        }
        return exitCode(results.flatMap(\.2), minimum: nil)
    }

    /// `isobar home [set PLACE]`, and `isobar` with no arguments.
    func runHome(_ parsed: Invocation) async throws -> ExitCode {
        let action = parsed.positionals.first ?? "show"
        guard ["show", "set"].contains(action) else {
            throw UsageError("unknown home action '\(action)'; use isobar home, or isobar home set PLACE")
        }
        let setup = try await weatherSetup(parsed)
        let store = try await placesStore(setup, parsed)
        if action == "set" {
            guard parsed.positionals.count == 2 else { throw UsageError("'home set' needs a PLACE") }
            let resolution = try await resolvePlace(parsed.positionals[1], setup: setup, parsed: parsed)
            try await store.setSetting("home", Self.encodePlaces([resolution.place]))
            output.write(parsed.options.format == .jsonl
                ? line("home_set", [("place", Self.placeJSON(resolution.place))])
                : "Home is now \(resolution.place.fullLabel).\n")
            return .success
        }
        let home = try await store.setting("home").flatMap { Self.decodePlaces($0) }?.first
        let place: Place
        if let home {
            place = home
        } else if let first = try await store.favourites(seed: seedCities(), now: time.now()).first {
            place = first
            errors.write("isobar: note: no home set (isobar home set PLACE); showing your first city\n")
        } else {
            throw PlaceError("no home and no cities: isobar home set PLACE")
        }
        return await showWeather(.detail, Resolution(place: place, runnersUp: [], source: "home"), setup, parsed)
    }

    static func placeJSON(_ place: Place) -> JSONOutput {
        .object([("name", .string(place.name)), ("admin_area", .string(place.adminArea)), ("country_code", .string(place.countryCode)),
                 ("latitude", .number(place.coordinate.latitude)), ("longitude", .number(place.coordinate.longitude)),
                 ("timezone", .string(place.timeZoneIdentifier))])
    }
}
