import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarPlaces
import IsobarStore

extension IsobarCommandLine {
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
            table.narrowing = TableLayouts.search
            for (index, result) in results.enumerated() {
                let place = result.place
                table.rows.append([String(index + 1), place.name, place.adminArea ?? "", place.countryCode ?? "",
                                   JSONOutput.format(place.coordinate.latitude), JSONOutput.format(place.coordinate.longitude),
                                   place.timeZoneIdentifier ?? "", result.detail])
            }
            output.write(table.render(width: width))
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
}
