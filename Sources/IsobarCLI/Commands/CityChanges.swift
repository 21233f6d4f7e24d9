import FoundationEssentials
import IsobarCore
import IsobarPlaces
import IsobarRender
import IsobarStore

/// `isobar cities add PLACE`: an ambiguous name means its best match, as everywhere, said on stderr with the others.
struct CityAddCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Adds the place (or says where it already is).
    func run() async throws -> ExitCode {
        let access = try await CitiesAccess.open(context, invocation, for: "add")
        let resolution = try await context.resolvePlace(invocation.positionals[1], setup: access.setup, parsed: invocation)
        let place = resolution.place
        let addition = try await access.store.addCity(place, now: context.time.now())
        let (position, already) = switch addition {
        case .added(let position): (position, false)
        case .alreadyThere(let position): (position, true)
        }
        context.write(TextReport(people: { _ in already ? "\(place.fullLabel) is already city number \(position).\n" : "Added \(place.fullLabel) as city number \(position).\n" },
                                 lines: { JSONLine.text("city_added", [("index", .integer(position)), ("place", PlaceJSON.object(place)), ("already_there", .bool(already)),
                                             ("runners_up", .array(resolution.runnersUp.map(PlaceJSON.object)))]) }), as: invocation.options.format)
        return .success
    }
}

/// `isobar cities remove|rm PLACE|NUMBER`: the city is looked for in the list as it is when it is removed, in the same
/// transaction, so that what goes is what was named even while other processes change the list.
struct CityRemoveCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Removes the city named.
    func run() async throws -> ExitCode {
        let access = try await CitiesAccess.open(context, invocation, for: "remove")
        await context.beforeCityChange()
        let city = try NamedCity(invocation.positionals[1])
        switch try await access.store.removeCity(city.reference) {
        case .removed(let removed, let position):
            context.write(TextReport(people: { _ in "Removed \(removed.fullLabel).\n" },
                                     lines: { JSONLine.text("city_removed", [("index", .integer(position)), ("place", PlaceJSON.object(removed))]) }), as: invocation.options.format)
            return .success
        case .noCity(let cities):
            throw city.missing(from: cities)
        }
    }
}

/// `isobar cities move FROM TO`: FROM and TO are numbers, names or coordinates, looked for in the list as it is when the city
/// moves, in the same transaction.
struct CityMoveCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Moves the city named first to the place of the second.
    func run() async throws -> ExitCode {
        let access = try await CitiesAccess.open(context, invocation, for: "move",
                                                 tooFew: "'cities move' needs FROM and TO: a number, a name or coordinates, e.g. isobar cities move 3 1")
        await context.beforeCityChange()
        let city = try NamedCity(invocation.positionals[1])
        let destination = try NamedCity(invocation.positionals[2])
        switch try await access.store.moveCity(city.reference, to: destination.reference) {
        case .moved(let moved, let source, let target):
            context.write(TextReport(people: { _ in "Moved \(moved.fullLabel) to number \(target).\n" },
                                     lines: { JSONLine.text("city_moved", [("from", .integer(source)), ("index", .integer(target)), ("place", PlaceJSON.object(moved))]) }), as: invocation.options.format)
            return .success
        case .noCity(let cities):
            throw city.missing(from: cities)
        case .noDestination(let cities):
            throw destination.missing(from: cities)
        }
    }
}

/// A city as the user wrote it, and what the words name.
struct NamedCity: Sendable {
    /// What the words name: a number (a position in the list as it is when the change is made), coordinates (the city within
    /// 100 m, the rule that also keeps a place from being added twice), or a name (ignoring case and accents).
    let reference: CityReference
    /// The words, trimmed.
    let text: String

    /// What `text` names; an error when it is too long, holds control characters or is a bad coordinate pair.
    init(_ text: String) throws(PlaceError) {
        let trimmed = try PlaceDirectory.validate(text)
        self.text = trimmed
        if let number = Int(trimmed) {
            reference = .number(number)
        } else if let coordinate = try PlaceDirectory.coordinate(trimmed) {
            reference = .coordinate(coordinate)
        } else {
            let folded = PlaceDirectory.fold(trimmed)
            reference = .first { PlaceDirectory.fold($0.name) == folded || PlaceDirectory.fold($0.fullLabel) == folded }
        }
    }

    /// The error for words that named no city in `cities`, the list as the change found it.
    func missing(from cities: [Place]) -> PlaceError {
        if case .number(let number) = reference {
            return PlaceError(cities.isEmpty ? "there is no city number \(number); you have none"
                                             : "there is no city number \(number); you have \(cities.count) (1 to \(cities.count))")
        }
        let names = cities.isEmpty ? "you have none" : cities.map(\.name).joined(separator: ", ")
        return PlaceError("'\(text)' is not one of your cities (\(names))")
    }
}
