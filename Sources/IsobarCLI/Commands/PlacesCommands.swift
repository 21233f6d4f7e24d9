import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarPlaces
import IsobarStore

extension IsobarCommandLine {
    /// The store that keeps favourites and home: opened even when every provider replays.
    private func placesStore(_ setup: WeatherSetup, _ parsed: ParsedArguments) throws -> Store {
        if let store = setup.store { return store }
        guard let store = openStore(parsed, setup.configuration) else {
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
    func runSearch(_ parsed: ParsedArguments) async throws -> ExitCode {
        let limit = try parsed["limit"].map { text throws(UsageError) in
            guard let limit = Int(text), (1...50).contains(limit) else { throw UsageError("--limit takes a whole number from 1 to 50, not '\(text)'") }
            return limit
        } ?? 10
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
            let prepared = try weatherSetup(parsed)
            setup = prepared
            if let transport = networkTransport(prepared, parsed),
               let found = try? await resolvePlace(text, network: transport, store: prepared.store, geocoders: geocoders(prepared.configuration)) {
                results = ([found.place] + found.runnersUp).prefix(limit).map { ($0, found.source) }
            }
        }
        guard !results.isEmpty else { throw PlaceError("no place matches '\(text.trimmingSpaces())'") }
        if parsed["format"] == "jsonl" {
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
        guard parsed.has("add") else { return .success }
        let prepared = try setup ?? weatherSetup(parsed)
        let store = try placesStore(prepared, parsed)
        let chosen = results[0].place
        _ = try store.favourites(seed: seedCities(), now: time.now())
        switch try store.addFavourite(chosen, now: time.now()) {
        case .added(let position): errors.write("isobar: added \(chosen.fullLabel) to your cities as number \(position)\n")
        case .alreadyThere(let position): errors.write("isobar: \(chosen.fullLabel) is already your city number \(position)\n")
        }
        output.write("\n")
        return await showWeather(.detail, Resolution(place: chosen, runnersUp: [], source: "search"), prepared, parsed)
    }

    /// `isobar cities`, `isobar cities add PLACE`, `isobar cities remove PLACE|NUMBER`.
    func runCities(_ parsed: ParsedArguments) async throws -> ExitCode {
        let action = parsed.positionals.first ?? "list"
        let actions = ["list", "add", "remove"]
        guard actions.contains(action) else {
            let suggestion = Spelling.closest(to: action, in: actions).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("unknown cities action '\(action)'\(suggestion); actions are list, add, remove")
        }
        if action != "list" && parsed.positionals.count < 2 { throw UsageError("'cities \(action)' needs a PLACE") }
        if action == "list" && parsed.positionals.count > 1 { throw UsageError("'cities' lists your cities; to add one: isobar cities add PLACE") }
        let setup = try weatherSetup(parsed)
        let store = try placesStore(setup, parsed)
        let cities = try store.favourites(seed: seedCities(), now: time.now())
        switch action {
        case "add":
            let text = parsed.positionals[1]
            let resolution = try await resolvePlace(text, network: networkTransport(setup, parsed), store: setup.store,
                                                    geocoders: geocoders(setup.configuration), announce: false)
            if !resolution.runnersUp.isEmpty && resolution.source == "gazetteer" {
                let options = ([resolution.place] + resolution.runnersUp).prefix(5).map(\.fullLabel)
                throw PlaceError("'\(text.trimmingSpaces())' could be \(options.joined(separator: "; ")); add one with a qualifier, e.g. \"\(resolution.place.name), \(resolution.place.countryCode ?? "CC")\"")
            }
            let addition = try store.addFavourite(resolution.place, now: time.now())
            if parsed["format"] == "jsonl" {
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
            guard let removed = try store.removeFavourite(at: position) else {
                throw PlaceError("there is no city number \(position); you have \(cities.count)")
            }
            output.write(parsed["format"] == "jsonl"
                ? line("city_removed", [("index", .integer(position)), ("place", Self.placeJSON(removed))])
                : "Removed \(removed.fullLabel).\n")
            return .success
        default:
            return await listCities(cities, setup, parsed)
        }
    }

    /// The consensus now for every city, fetched concurrently (cached answers are reused; only stale ones are asked again).
    private func listCities(_ cities: [Place], _ setup: WeatherSetup, _ parsed: ParsedArguments) async -> ExitCode {
        guard !cities.isEmpty else {
            output.write("You have no cities. Add one: isobar cities add PLACE\n")
            return .success
        }
        let engine = Engine(bindings: setup.bindings, store: setup.store, options: setup.options, time: time)
        let results = await withTaskGroup(of: (Int, ConsensusResult?, [ProviderOutcome]).self) { group in
            for (index, city) in cities.enumerated() {
                group.addTask {
                    var consensus: ConsensusResult?
                    var outcomes: [ProviderOutcome] = []
                    for await event in engine.run(WeatherRequest(place: city, kinds: [.current])) {
                        switch event {
                        case .result(let report): outcomes.append(ProviderOutcome(report.freshness))
                        case .failure(_, let error): outcomes.append(ProviderOutcome(error))
                        case .consensus(let merged): consensus = merged
                        }
                    }
                    return (index, consensus, outcomes)
                }
            }
            var collected: [(Int, ConsensusResult?, [ProviderOutcome])] = []
            for await result in group { collected.append(result) }
            return collected.sorted { $0.0 < $1.0 }
        }
        let units = setup.units
        if parsed["format"] == "jsonl" {
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
    func runHome(_ parsed: ParsedArguments) async throws -> ExitCode {
        let action = parsed.positionals.first ?? "show"
        guard ["show", "set"].contains(action) else {
            throw UsageError("unknown home action '\(action)'; use isobar home, or isobar home set PLACE")
        }
        let setup = try weatherSetup(parsed)
        let store = try placesStore(setup, parsed)
        if action == "set" {
            guard parsed.positionals.count == 2 else { throw UsageError("'home set' needs a PLACE") }
            let resolution = try await resolvePlace(parsed.positionals[1], network: networkTransport(setup, parsed), store: setup.store,
                                                geocoders: geocoders(setup.configuration))
            try store.setSetting("home", Self.encodePlaces([resolution.place]))
            output.write(parsed["format"] == "jsonl"
                ? line("home_set", [("place", Self.placeJSON(resolution.place))])
                : "Home is now \(resolution.place.fullLabel).\n")
            return .success
        }
        let home = try store.setting("home").flatMap(Self.decodePlaces)?.first
        let place: Place
        if let home {
            place = home
        } else if let first = try store.favourites(seed: seedCities(), now: time.now()).first {
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
