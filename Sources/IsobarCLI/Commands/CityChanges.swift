import FoundationEssentials
import IsobarCore
import IsobarPlaces
import IsobarStore

extension IsobarCommandLine {
    /// `isobar cities add PLACE`: an ambiguous name means its best match, as everywhere, said on stderr with the others.
    func addCity(_ text: String, _ store: UserDataStore, _ setup: WeatherSetup, _ parsed: Invocation) async throws -> ExitCode {
        let resolution = try await resolvePlace(text, setup: setup, parsed: parsed)
        let place = resolution.place
        let addition = try await store.addCity(place, now: time.now())
        let (position, already) = switch addition {
        case .added(let position): (position, false)
        case .alreadyThere(let position): (position, true)
        }
        if parsed.options.format == .jsonl {
            output.write(line("city_added", [("index", .integer(position)), ("place", Self.placeJSON(place)), ("already_there", .bool(already)),
                                             ("runners_up", .array(resolution.runnersUp.map(Self.placeJSON)))]))
        } else {
            output.write(already ? "\(place.fullLabel) is already city number \(position).\n" : "Added \(place.fullLabel) as city number \(position).\n")
        }
        return .success
    }

    /// `isobar cities remove|rm PLACE|NUMBER`.
    func removeCity(_ text: String, _ cities: [Place], _ store: UserDataStore, _ parsed: Invocation) async throws -> ExitCode {
        let position = try cityPosition(text, in: cities)
        guard let removed = try await store.removeCity(at: position) else {
            throw PlaceError("there is no city number \(position); you have \(cities.count)")
        }
        output.write(parsed.options.format == .jsonl
            ? line("city_removed", [("index", .integer(position)), ("place", Self.placeJSON(removed))])
            : "Removed \(removed.fullLabel).\n")
        return .success
    }

    /// `isobar cities move FROM TO`: FROM and TO are numbers, names or coordinates of cities in the list.
    func moveCity(_ from: String, to: String, _ cities: [Place], _ store: UserDataStore, _ parsed: Invocation) async throws -> ExitCode {
        let source = try cityPosition(from, in: cities)
        let target = try cityPosition(to, in: cities)
        guard let moved = try await store.moveCity(from: source, to: target) else {
            throw PlaceError("your cities changed meanwhile; see isobar cities and try again")
        }
        output.write(parsed.options.format == .jsonl
            ? line("city_moved", [("from", .integer(source)), ("index", .integer(target)), ("place", Self.placeJSON(moved))])
            : "Moved \(moved.fullLabel) to number \(target).\n")
        return .success
    }

    /// The 1-based position of the city `text` names: a number, coordinates (compared by value, within about 100 m, the rule
    /// that also keeps a place from being added twice), or a name (ignoring case and accents).
    func cityPosition(_ text: String, in cities: [Place]) throws(PlaceError) -> Int {
        let trimmed = try PlaceDirectory.validate(text)
        if let number = Int(trimmed) {
            guard number >= 1, number <= cities.count else {
                throw PlaceError(cities.isEmpty ? "there is no city number \(number); you have none"
                                                : "there is no city number \(number); you have \(cities.count) (1 to \(cities.count))")
            }
            return number
        }
        let index: Int?
        if let coordinate = try PlaceDirectory.coordinate(trimmed) {
            index = cities.firstIndex { Self.sameSpot($0.coordinate, coordinate) }
        } else {
            let folded = PlaceDirectory.fold(trimmed)
            index = cities.firstIndex { PlaceDirectory.fold($0.name) == folded || PlaceDirectory.fold($0.fullLabel) == folded }
        }
        guard let index else {
            let names = cities.isEmpty ? "you have none" : cities.map(\.name).joined(separator: ", ")
            throw PlaceError("'\(trimmed)' is not one of your cities (\(names))")
        }
        return index + 1
    }

    /// Two coordinates the store counts as one place: equal when rounded to 0.001° (about 100 m).
    static func sameSpot(_ a: Coordinate, _ b: Coordinate) -> Bool {
        (a.latitude * 1000).rounded() == (b.latitude * 1000).rounded() && (a.longitude * 1000).rounded() == (b.longitude * 1000).rounded()
    }
}
