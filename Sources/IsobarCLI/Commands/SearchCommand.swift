import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarPlaces
import IsobarRender
import IsobarStore

/// `isobar search TEXT [--limit N] [--add]`.
struct SearchCommand: IsobarCommand {
    typealias Own = SearchOptions
    static let spec = Commands.search
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Runs the command and returns its exit code.
    func run() async throws -> ExitCode {
        let limit = own.limit
        let text = invocation.positionals[0]
        guard try PlaceDirectory.validate(text).count >= 2 || PlaceDirectory.isCoordinateLike(text) else {
            throw PlaceError("type at least 2 characters to search")
        }
        let resolver = try context.placeResolver()
        if resolver.gazetteer == nil && !PlaceDirectory.isCoordinateLike(text) {
            throw ConfigurationError(DataDirectory.notFoundMessage(environment: context.environment))
        }
        var results: [SearchRow]
        if let coordinate = try PlaceDirectory.coordinate(try PlaceDirectory.validate(text)) {
            let named = resolver.name(coordinate)
            results = [SearchRow(place: named.place, match: "coordinates", nearest: named.nearest)]
        } else {
            results = try resolver.search(text, limit: limit).map(SearchRow.init)
            if let bundled = try resolver.bundled.directory().match(text) {
                // The bundled entry stands for the gazetteer's (within about a kilometre), keeping its population.
                let same = results.firstIndex { abs($0.place.coordinate.latitude - bundled.place.coordinate.latitude) < 0.01
                    && abs($0.place.coordinate.longitude - bundled.place.coordinate.longitude) < 0.01 }
                let alternate = PlaceDirectory.fold(bundled.matchedName) != PlaceDirectory.fold(bundled.place.name)
                var row = SearchRow(place: bundled.place, match: (alternate ? MatchKind.exactAlternate : .exactName).description)
                row.matchedName = bundled.matchedName
                row.matchedAlternate = alternate
                row.population = same.map { results.remove(at: $0) }?.population
                results.insert(row, at: 0)
                results = Array(results.prefix(limit))
            }
        }
        var setup: WeatherSetup?
        if results.isEmpty {
            let prepared = try await context.weatherSetup(invocation)
            setup = prepared
            if context.networkTransport(prepared, invocation) != nil, let found = try? await context.resolvePlace(text, setup: prepared, parsed: invocation) {
                results = ([found.place] + found.runnersUp).prefix(limit).map { SearchRow(place: $0, match: found.source) }
            }
        }
        guard !results.isEmpty else { throw PlaceError("no place matches '\(text.trimmingSpaces())'") }
        // With --add, the user's data must be usable before anything is shown: a failure prints no partial success.
        var store: UserDataStore?
        if own.add {
            let prepared: WeatherSetup
            if let setup { prepared = setup } else { prepared = try await context.weatherSetup(invocation) }
            setup = prepared
            store = try await context.userData(prepared.configuration)
        }
        let query = text.trimmingSpaces()
        context.write(TextReport(people: { width in
            let columns = SearchRow.columns(query: query)
            return columns.table(Array(results.enumerated()), narrowing: TableLayouts.search(columns)).render(width: width)
        }, lines: {
            var written = ""
            for (index, result) in results.enumerated() {
                written += JSONLine.text("place", [("rank", .integer(index + 1)), ("place", PlaceJSON.object(result.place))] + result.jsonMembers)
            }
            return written
        }), as: invocation.options.format)
        guard let store, let prepared = setup else { return .success }
        let chosen = results[0].place
        _ = try await store.cities(seed: context.seedCities(), now: context.time.now())
        switch try await store.addCity(chosen, now: context.time.now()) {
        case .added(let position): context.errors.write("isobar: added \(chosen.fullLabel) to your cities as number \(position)\n")
        case .alreadyThere(let position): context.errors.write("isobar: \(chosen.fullLabel) is already your city number \(position)\n")
        }
        context.output.write("\n")
        return await context.showWeather(.detail, Resolution(place: chosen, runnersUp: [], source: "search"), prepared, invocation)
    }
}
