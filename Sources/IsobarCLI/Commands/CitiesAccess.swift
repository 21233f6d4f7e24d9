import IsobarCore
import IsobarStore

/// What every `cities` action starts from: its arguments checked, the weather setup (learned weights over every place in the
/// archive, as for a batch), the user's data and the cities as they are (the first run's are seeded then).
struct CitiesAccess {
    /// The providers, store and options.
    let setup: WeatherSetup
    /// The user's data, which holds the cities.
    let store: UserDataStore
    /// The cities, in order.
    let cities: [Place]

    /// Checks the arguments after the action `named` against its spec (`tooFew` and `tooMany` say what is wrong when the usual
    /// words would not), then opens what every action works on.
    static func open(_ context: CommandContext, _ invocation: Invocation, for named: String, tooFew: String? = nil,
                     tooMany: String? = nil) async throws -> CitiesAccess {
        try checkArguments(invocation, for: named, tooFew: tooFew, tooMany: tooMany)
        let setup = await context.learned(try await context.weatherSetup(invocation), near: nil)
        let store = try await context.userData(setup.configuration)
        let cities = try await store.cities(seed: context.seedCities(), now: context.time.now())
        return CitiesAccess(setup: setup, store: store, cities: cities)
    }

    /// As many arguments after the action as its spec lists; the messages name the action as typed (`rm` or `remove`).
    private static func checkArguments(_ invocation: Invocation, for named: String, tooFew: String?, tooMany: String?) throws(UsageError) {
        let word = invocation.positionals.first ?? named
        let wanted = CitiesCommand.subcommand(named: named)?.arguments.count ?? 0
        let given = max(0, invocation.positionals.count - 1)
        if given < wanted { throw UsageError(tooFew ?? "'cities \(word)' needs a PLACE") }
        if given > wanted {
            throw UsageError(tooMany ?? "unexpected argument '\(invocation.positionals[wanted + 1])' for 'cities \(word)' (quote a place name with spaces: \"New York\")")
        }
    }
}
