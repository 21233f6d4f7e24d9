import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRender
import IsobarStore

/// `isobar learn PLACE [--days N]`: the record learns the past `N` days at once — what each configured source that
/// publishes its past forecasts (Open-Meteo's Previous Runs) forecast 1 to 7 days ahead, paired with the reports of the
/// nearest METAR station kept by the observations source's archive (the IEM ASOS archive), folded into the same decayed
/// sums the archive fills, marked as backfill. Sources that publish no past forecasts keep learning from the archive.
struct LearnCommand: IsobarCommand {
    typealias Own = LearnOptions
    /// The days back asked when `--days` is not given.
    static let defaultDays = 30
    /// The most days back `--days` takes (what Open-Meteo's Previous Runs keep for `past_days`).
    static let maximumDays = 92

    static let spec = CommandSpec(
        name: "learn", summary: "Learn from the past days at once (past forecasts and station reports): isobar learn PLACE [--days N]",
        arguments: ["PLACE"],
        options: [
            .value("days", "N", "how many past days to learn from, 1 to 92 (default 30, at most what the sources keep)"),
            .value("config", "FILE", "read this configuration file"),
            .value("timeout", "DURATION", "give up on the sources after this long (default 10s)"),
            .value("format", "FORMAT", "table or jsonl", choices: [OutputFormat.table.rawValue, OutputFormat.jsonl.rawValue]),
            .flag("json", "the same as --format jsonl"),
            .flag("help", "show this help"),
        ],
        discussion: "Asks each configured source that publishes its past forecasts (open-meteo entries: the Previous Runs API, one request per entry for every model and every day back) and the observations source's archive (metar: the Iowa Environmental Mesonet's ASOS archive, one request for the nearest station and the whole range), pairs each past forecast with the report nearest its hour, as the archive is paired, and folds the pairs into the skill record marked as backfill, so that --weights auto has learned weights for those sources from the first day. Running it again folds only hours after the last backfill. Sources that publish no past forecasts (OpenWeatherMap, MET Norway) keep learning from the archive. Needs an observations entry.")

    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Gathers, folds and says what was learned.
    func run() async throws -> ExitCode {
        try await Backfill(context: context, invocation: invocation).run()
    }
}

/// One run of `isobar learn`: gather the past forecasts and observations, fold them, say what was learned.
struct Backfill {
    let context: CommandContext
    let invocation: Invocation

    /// What was gathered from the sources.
    struct Gathered {
        var forecasts: [PastForecast] = []
        var sources: [String] = []
        var withoutPast: [String] = []
        var failures: [String] = []
    }

    /// What one backfill learned.
    struct Learned {
        /// The place learned for.
        var place: Place
        /// The days back asked.
        var days: Int
        /// The station whose reports stood for the truth.
        var station: String
        /// The reports read.
        var observations: Int
        /// The pairs folded and left out.
        var tally: UserDataStore.BackfillTally
        /// What was gathered from the sources.
        var gathered: Gathered
    }

    func run() async throws -> ExitCode {
        let days = invocation.own(LearnOptions.self).days ?? LearnCommand.defaultDays
        let text = invocation.positionals[0]
        guard let found = try context.placeResolver().resolveOffline(text) else {
            throw PlaceError("unknown place '\(text)' (give a name from the gazetteer or coordinates such as 53.9,27.57)")
        }
        let configuration = try context.loadConfiguration(invocation)
        let timeout = invocation.options.timeoutSeconds ?? EngineOptions().timeoutSeconds
        guard let learned = try await learn(found.place, configuration: configuration, days: days, timeout: timeout) else { return .noneAnswered }
        let (place, tally, gathered) = (learned.place, learned.tally, learned.gathered)
        let lines = JSONLine.text("learned", [
            ("place", PlaceJSON.object(place)), ("days", .integer(days)), ("station", .string(learned.station)),
            ("observations", .integer(learned.observations)), ("pairs", .integer(tally.folded)), ("skipped", .integer(tally.skipped)),
            ("basis", .string("backfill")), ("learned_from", .array(gathered.sources.map(JSONOutput.string))),
            ("archive_only", .array(gathered.withoutPast.map(JSONOutput.string))),
        ])
        var said = "Learned \(tally.folded) past forecast(s) of \(gathered.sources.joined(separator: ", ")) for \(place.name) over \(days) day(s), "
            + "against \(learned.observations) report(s) of \(learned.station); \(tally.skipped) left out (no report near their hour, or learned before).\n"
        if !gathered.withoutPast.isEmpty {
            said += "\(gathered.withoutPast.joined(separator: ", ")) publish no past forecasts and keep learning from the archive.\n"
        }
        context.write(TextReport(people: { [said] _ in said }, lines: { lines }), as: invocation.options.format)
        return gathered.failures.isEmpty ? .success : .partial
    }

    /// Gathers the past `days` days near `place` from the sources of `configuration` and folds them into the record; nil
    /// when nothing could be learned (said on standard error, as is every source that failed).
    func learn(_ place: Place, configuration: Configuration, days: Int, timeout: Double) async throws -> Learned? {
        guard let entry = configuration.observations else {
            throw ConfigurationError("learn pairs past forecasts with station reports: add an observations entry (\"observations\": {\"type\": \"metar\"})")
        }
        guard let dataDirectory = DataDirectory.locate(environment: context.environment) else {
            throw ConfigurationError(DataDirectory.notFoundMessage(environment: context.environment))
        }
        guard let directory = context.userDataDirectory() else { throw ConfigurationError("no folder for the forecast archive: set XDG_DATA_HOME or HOME") }
        let live = LazyTransport(make: context.makeLiveTransport)
        let bindings = try await context.registry.bindings(for: configuration, environment: context.environment, time: context.time,
                                                           deadline: Date().addingTimeInterval(timeout), live: { live })
        let now = context.time.now()
        // Each source's request for its past takes a permit from its call ledger, as its weather calls do.
        let cache = await context.openStore(invocation, configuration)
        let diagnostics = context.diagnosticLog(invocation)
        let time = context.time
        let gathered = await pastForecasts(bindings, place: place, days: days, now: now, timeout: timeout) { binding in
            guard let cache else { return binding.transport }
            return LedgerTransport(base: binding.transport, binding: binding, ledger: cache, time: time, diagnostics: diagnostics, waitSeconds: timeout)
        }
        let observer = try await context.registry.observer(entry, environment: context.environment, transport: live, dataDirectory: dataDirectory)
        guard let archive = observer as? any ObservationArchive else {
            throw ConfigurationError("the observations source '\(entry.type)' keeps no archive of past reports to learn from")
        }
        guard !gathered.forecasts.isEmpty else {
            for failure in gathered.failures { context.errors.write("isobar: \(failure)\n") }
            context.errors.write("isobar: no configured source gave past forecasts (only open-meteo entries publish them)\n")
            return nil
        }
        let station: String
        let observations: [WeatherSample]
        do throws(ProviderError) {
            guard let nearest = try archive.archiveStation(near: place) else {
                throw ProviderError(.notFound, "no METAR station near \(place.name)")
            }
            station = nearest
            let start = now.addingTimeInterval(-Double(days + 7) * 86_400)
            let response = try await Self.send(archive.archiveRequest(station: station, from: start, to: now), over: live, timeout: timeout)
            observations = try archive.archivedObservations(in: response, now: now)
        } catch {
            context.errors.write("isobar: no past reports to learn from: \(error.message)\n")
            return nil
        }
        let store = try await UserDataStore.open(directory: directory)
        let tally = try await store.foldBackfill(gathered.forecasts, observations: observations, source: entry.type, station: station,
                                                 place: place, families: SourceFamilies.of(bindings))
        for failure in gathered.failures { context.errors.write("isobar: \(failure)\n") }
        return Learned(place: place, days: days, station: station, observations: observations.count, tally: tally, gathered: gathered)
    }

    /// Asks each binding that publishes past forecasts, one request each, over the transport `limited` gives it (its own,
    /// taking permits from its rate limits).
    func pastForecasts(_ bindings: [ProviderBinding], place: Place, days: Int, now: Date, timeout: Double,
                       limited: (ProviderBinding) -> any Transport) async -> Gathered {
        var gathered = Gathered()
        for binding in bindings {
            guard let provider = binding.provider as? any PastForecasting else {
                gathered.withoutPast += binding.provider.sources.map(\.id)
                continue
            }
            do {
                let request = provider.pastForecastRequest(near: place, days: min(days, provider.pastDaysLimit))
                let response = try await Self.send(request, over: limited(binding), timeout: timeout)
                gathered.forecasts += try provider.pastForecasts(in: response, now: now)
                gathered.sources += provider.sources.map(\.id)
            } catch {
                gathered.failures.append("\(provider.id): no past forecasts: \(error.message)")
            }
        }
        return gathered
    }

    /// Sends one request within `timeout` seconds.
    static func send(_ request: HTTPRequest, over transport: any Transport, timeout: Double) async throws(ProviderError) -> HTTPResponse {
        var request = request
        request.notAfter = Date().addingTimeInterval(timeout)
        return try await transport.send(request)
    }
}
