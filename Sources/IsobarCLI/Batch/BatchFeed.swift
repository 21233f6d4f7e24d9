import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRender

/// Turns a batch's input lines into the engine's requests, one at a time and only when the engine asks for the next:
/// bad lines become `input_error` lines on the way, and nothing is read ahead beyond one chunk of lines.
actor BatchFeed {
    private let lines: InputLines
    private let book: BatchBook
    private let places: BatchPlaces
    private let kinds: Set<DataKind>
    private let inputErrorText: @Sendable (InputLine, BatchLineError) -> String
    private var chunk: [InputLine] = []
    private var index = 0
    /// The zones read so far, by identifier (a batch's places share a few hundred zones at most), nil for one that cannot be read.
    private var zones: [String: ZoneInfo?] = [:]

    /// A feed of `lines`, booked in `book`, resolved by `places`, asking for `kinds`; a bad line is written as
    /// `inputErrorText` makes it (an `input_error` JSON line unless told otherwise).
    init(lines: InputLines, book: BatchBook, places: BatchPlaces, kinds: Set<DataKind>,
         inputErrorText: @escaping @Sendable (InputLine, BatchLineError) -> String = { BatchLines.inputError(line: $0, $1) }) {
        self.lines = lines
        self.book = book
        self.places = places
        self.kinds = kinds
        self.inputErrorText = inputErrorText
    }

    /// The next good place's request; nil at the end of the input or once the run stopped taking places.
    func next() async -> WeatherRequest? {
        while !book.isStopped {
            guard let line = await nextLine() else { return nil }
            guard let parsed = BatchLine.parse(line) else { continue }
            guard await book.waitForRoom() else { return nil }
            let resolved: Result<(place: Place, runnersUp: [Place]), BatchLineError>
            switch parsed {
            case .failure(let error): resolved = .failure(error)
            case .success(let ask):
                resolved = await places.resolve(ask).map { resolution in (withZoneOffset(resolution.place), resolution.runnersUp) }
                if case .success(let found) = resolved {
                    book.takePlace(LineLabel(inputLine: line.number, id: ask.id, query: ask.query, runnersUp: found.runnersUp))
                    return WeatherRequest(place: found.place, kinds: kinds)
                }
            }
            if case .failure(let error) = resolved { book.inputError(Array(inputErrorText(line, error).utf8)) }
        }
        return nil
    }

    /// The place with its zone's offset now, as `Place.withZoneOffset` gives it, each zone's file read once per run.
    private func withZoneOffset(_ place: Place) -> Place {
        guard let identifier = place.timeZoneIdentifier else { return place }
        if zones[identifier] == nil {
            if zones.count >= 4096 { zones.removeAll() }
            zones[identifier] = .some(try? ZoneInfo.load(identifier: identifier, directory: ZoneInfo.defaultDirectory))
        }
        guard let zone = zones[identifier] ?? nil else { return place }
        var place = place
        place.utcOffsetSeconds = zone.offset(at: places.time.now())
        return place
    }

    private func nextLine() async -> InputLine? {
        if index == chunk.count {
            guard let more = await lines.next() else { return nil }
            chunk = more
            index = 0
        }
        defer { index += 1 }
        return chunk[index]
    }
}

/// Resolves a batch line's place as every command does: coordinates, the bundled places, the offline gazetteer, then
/// (when the network is allowed) the configured geocoders.
struct BatchPlaces: Sendable {
    /// The offline resolver, loaded once for the whole run.
    let resolver: PlaceResolver
    /// The configured providers' geocoders.
    let geocoding: GeocodingChain
    /// The transport geocoders use; nil when places may not be looked up online.
    let network: (any Transport)?
    /// The clock.
    let time: any TimeSource
    /// Said when the bundled data (and with it the gazetteer) is missing.
    let missingData: String
    /// Where geocoders' warnings go.
    let warn: @Sendable (String) -> Void

    /// The place the line asks about, or why there is none.
    func resolve(_ ask: BatchAsk) async -> Result<Resolution, BatchLineError> {
        let text: String
        switch ask.target {
        case .coordinate(let coordinate):
            return .success(Resolution(place: resolver.name(coordinate).place, runnersUp: [], source: "coordinates"))
        case .text(let given): text = given
        }
        do throws(PlaceError) {
            if let resolution = try resolver.resolveOffline(text) { return .success(resolution) }
        } catch {
            return .failure(BatchLineError(code: .badInput, message: error.message, id: ask.id))
        }
        guard resolver.gazetteer != nil else { return .failure(BatchLineError(code: .unknownPlace, message: missingData, id: ask.id)) }
        if let network, let found = await geocoding.resolve(text, query: PlaceDirectory.fold(text),
                                                            context: FetchContext(transport: network, time: time), warn: warn) {
            return .success(Resolution(place: found.place, runnersUp: found.runnersUp, source: found.source))
        }
        let suggestions = resolver.suggestions(text).map(\.fullLabel)
        let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: " or "))?"
        return .failure(BatchLineError(code: .unknownPlace, message: "unknown place '\(text)'\(hint)", id: ask.id))
    }
}
