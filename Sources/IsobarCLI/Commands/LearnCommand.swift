import FoundationEssentials
import IsobarConsensus
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
            .flag("demo", "learn from the bundled recording of Minsk into a throwaway record: no network, your record untouched"),
            .value("record", "DIR", "ask the sources live and save every exchange, secrets removed, as cassettes in DIR/<provider> and DIR/<observations type>"),
            .value("replay", "DIR", "answer the sources from the cassettes in DIR/<provider> and DIR/<observations type> (as written by --record)"),
            .value("timeout", "DURATION", "give up on the sources after this long (default 10s)"),
            .value("max-age", "SECONDS", "use kept answers up to this old (90, 15m, 1h, 2d), whatever each source's time to live"),
            .flag("refresh", "do not read the cache: ask the sources again (answers are still kept)"),
            .flag("offline", "use only the cache, never the network"),
            .value("cache-dir", "DIR", "keep the cache in DIR (default $XDG_CACHE_HOME/isobar)"),
            .value("units", "SYSTEM", "metric, imperial or standard for the bias and error (default from the configuration)",
                   choices: UnitSystem.allCases.map(\.rawValue)),
            .value("format", "FORMAT", "table or jsonl", choices: [OutputFormat.table.rawValue, OutputFormat.jsonl.rawValue]),
            .flag("json", "the same as --format jsonl"),
            Commands.plain,
            .flag("verbose", "also show problems with the cache and the rate-limit records"),
            .flag("help", "show this help"),
        ],
        discussion: "Asks each configured source that publishes its past forecasts (open-meteo entries: the Previous Runs API, one request per entry for every model and every day back) and the observations source's archive (metar: the Iowa Environmental Mesonet's ASOS archive, one request for the nearest station and the whole range), pairs each past forecast with the report nearest its hour, as the archive is paired, and folds the pairs into the skill record marked as backfill, so that --weights auto has learned weights for those sources from the first day; then shows what the record knows of each source by lead time (pairs, bias, error, weight). Both requests take permits from the source's rate limits and are kept in the cache for the source's lifetime (Open-Meteo's forecast lifetime, the observation source's current lifetime), so a second run within it asks nobody. Running it again folds only hours after the last backfill. Sources that publish no past forecasts (OpenWeatherMap, MET Norway) keep learning from the archive. Needs an observations entry. Replayed answers are read as of when they were recorded.")

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
        var failures: [ProviderError] = []
        /// When the replayed answers were recorded (the latest), nil when none was replayed.
        var recordedAt: Date?
        /// Requests answered from the cache.
        var fromCache = 0
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
        /// What the record knows now of each source learned from, by lead time.
        var skills: [LearnReport.Skill] = []
    }

    func run() async throws -> ExitCode {
        let days = invocation.own(LearnOptions.self).days ?? LearnCommand.defaultDays
        let text = invocation.positionals[0]
        guard let found = try context.placeResolver().resolveOffline(text) else {
            throw PlaceError("unknown place '\(text)' (give a name from the gazetteer or coordinates such as 53.9,27.57)")
        }
        if invocation.options.demo { try Self.checkDemoHolds(found.place, days: days) }
        var configuration = try context.loadConfiguration(invocation)
        if let directory = invocation.options.replayDirectory {
            for index in configuration.providers.indices {
                configuration.providers[index].replay = directory + "/" + configuration.providers[index].id
            }
        }
        let timeout = invocation.options.timeoutSeconds ?? EngineOptions().timeoutSeconds
        guard let learned = try await learn(found.place, configuration: configuration, days: days, timeout: timeout) else { return .noneAnswered }
        let (tally, gathered) = (learned.tally, learned.gathered)
        let summary = LearnReport.Summary(
            place: learned.place, days: days, station: learned.station, observations: learned.observations, pairs: tally.folded,
            skipped: tally.skipped, sources: gathered.sources, archiveOnly: gathered.withoutPast,
            source: gathered.recordedAt.map { .replay(recordedAt: $0) } ?? .live, fromCache: gathered.fromCache, throwaway: invocation.options.demo)
        let plain = Presentation(invocation.options, environment: context.environment).plain
        context.write(LearnReport(summary: summary, skills: learned.skills, units: invocation.options.units ?? configuration.units, plain: plain),
                      as: invocation.options.format)
        return gathered.failures.isEmpty ? .success : .partial
    }

    /// The place and days the demo's recording of past forecasts holds (see `scripts/make-demo-cassettes.py`).
    static let demoPlace = (name: "Minsk", latitude: 53.9, longitude: 27.5667)

    /// Under `--demo`, a usage error naming what the recording holds when `place` or `days` is another, before anything is asked.
    static func checkDemoHolds(_ place: Place, days: Int) throws(UsageError) {
        let recorded = abs(place.coordinate.latitude - demoPlace.latitude) < 1e-4 && abs(place.coordinate.longitude - demoPlace.longitude) < 1e-4
        if recorded && days == LearnCommand.defaultDays { return }
        throw UsageError("the demo's recording of past forecasts holds \(demoPlace.name) over \(LearnCommand.defaultDays) days; "
                         + "try 'isobar learn \(demoPlace.name) --demo' (without --demo, learn asks the live services)")
    }

    /// Gathers the past `days` days near `place` from the sources of `configuration` and folds them into the record (a
    /// throwaway one under `--demo`); nil when nothing could be learned (said on standard error, as is every source that
    /// failed). Replayed answers are read as of when they were recorded.
    func learn(_ place: Place, configuration: Configuration, days: Int, timeout: Double) async throws -> Learned? {
        guard var entry = configuration.observations else {
            throw ConfigurationError("learn pairs past forecasts with station reports: add an observations entry (\"observations\": {\"type\": \"metar\"})")
        }
        if let directory = invocation.options.replayDirectory { entry.replay = directory + "/" + entry.type }
        guard let dataDirectory = DataDirectory.locate(environment: context.environment) else {
            throw ConfigurationError(DataDirectory.notFoundMessage(environment: context.environment))
        }
        // One instant for the whole run: the days learned end then, and a recording is dated by it, so that its replay
        // (read as of when it was recorded) learns exactly what the run did, however long the run took. A whole second, as
        // a recording writes its date: a fraction more would age every pair by it, and a skill's pair count (a sum decayed
        // with age, rounded) that lies within a ten-thousandth of a half would then round one way live and the other replayed.
        let asOf = Date(timeIntervalSince1970: context.time.now().timeIntervalSince1970.rounded(.down))
        let sources = try await LearnSources(context: context, invocation: invocation, configuration: configuration, observations: entry,
                                             dataDirectory: dataDirectory, timeout: timeout, asOf: asOf)
        var gathered = await pastForecasts(sources, place: place, days: days, timeout: timeout, asOf: asOf)
        guard !gathered.forecasts.isEmpty else {
            sources.saveRecordings()
            sayNothingLearned(gathered.failures, place: place)
            return nil
        }
        // Replayed answers are read as of when they were recorded: their days end then.
        let now = gathered.recordedAt ?? asOf
        let station: String
        let observations: [WeatherSample]
        switch await stationReports(sources, place: place, days: days, now: now, timeout: timeout) {
        case .success(let reports):
            (station, observations) = reports
        case .failure(let error):
            sources.saveRecordings()
            if error.reason == .offline {
                context.errors.write("isobar: offline, and the station reports near \(place.name) are not cached: run learn without --offline first\n")
            } else {
                context.errors.write("isobar: no past reports to learn from: \(error.message)\n")
            }
            return nil
        }
        sources.saveRecordings()
        gathered.fromCache += sources.archiveCache?.answeredFromCache ?? 0
        if let recordedAt = sources.archiveRecordedAt { gathered.recordedAt = max(gathered.recordedAt ?? recordedAt, recordedAt) }
        return try await fold(gathered, place: place, days: days, station: station, observations: observations, source: entry.type,
                              families: SourceFamilies.of(sources.bindings), now: now)
    }

    /// Folds what was gathered into the record (a throwaway one under `--demo`), says the sources that failed, and reads
    /// back what the record knows now. (`learn` and its helpers are kept apart: Swift 6.3's optimizer crashed splitting one
    /// async function holding them all.)
    @inline(never)
    private func fold(_ gathered: Gathered, place: Place, days: Int, station: String, observations: [WeatherSample], source: String,
                      families: [String: String], now: Date) async throws -> Learned {
        let record = try recordDirectory()
        let store = try await UserDataStore.open(directory: record.directory)
        defer { record.discard() }
        let tally = try await store.foldBackfill(gathered.forecasts, observations: observations, source: source, station: station,
                                                 place: place, families: families)
        for failure in gathered.failures { context.errors.write("isobar: \(failure.message)\n") }
        var learned = Learned(place: place, days: days, station: station, observations: observations.count, tally: tally, gathered: gathered)
        // What was folded stays folded; a record that cannot be read back only leaves the table out.
        do {
            let known = try await store.skillRecord(near: place, now: now, settings: ConsensusLearning(), families: families)
            learned.skills = Self.skills(of: gathered.sources, in: known)
        } catch {
            context.warn("what was learned was folded, but the record could not be read back: \(error.message)")
        }
        return learned
    }

    /// The station nearest `place` and its reports from a week before the days learned up to `now`, or why there are none.
    @inline(never)
    private func stationReports(_ sources: LearnSources, place: Place, days: Int, now: Date,
                                timeout: Double) async -> Result<(station: String, observations: [WeatherSample]), ProviderError> {
        do throws(ProviderError) {
            guard let station = try sources.archive.archiveStation(near: place) else {
                throw ProviderError(.notFound, "no METAR station near \(place.name)")
            }
            let start = now.addingTimeInterval(-Double(days + 7) * 86_400)
            let response = try await Self.send(sources.archive.archiveRequest(station: station, from: start, to: now), over: sources.archiveTransport,
                                               timeout: timeout)
            let observations = try sources.archive.archivedObservations(in: response, now: now)
            await sources.archiveCache?.commit()
            return .success((station, observations))
        } catch {
            return .failure(error)
        }
    }

    /// Where to fold: the user's data folder, or under `--demo` a new folder of its own, removed once read.
    private func recordDirectory() throws -> LearnRecord {
        if invocation.options.demo { return try LearnRecord.throwaway(environment: context.environment) }
        guard let directory = context.userDataDirectory() else { throw ConfigurationError("no folder for the forecast archive: set XDG_DATA_HOME or HOME") }
        return LearnRecord(directory: directory, isThrowaway: false)
    }

    /// Says on standard error why nothing was learned: one line when the cache held nothing offline, else each failure.
    private func sayNothingLearned(_ failures: [ProviderError], place: Place) {
        if !failures.isEmpty, failures.allSatisfy({ $0.reason == .offline }) {
            context.errors.write("isobar: offline, and no past forecasts near \(place.name) are cached: run learn without --offline first\n")
            return
        }
        for failure in failures { context.errors.write("isobar: \(failure.message)\n") }
        context.errors.write("isobar: no configured source gave past forecasts (only open-meteo entries publish them)\n")
    }

    /// What the record knows of each of `sources` at each lead time it learned of its own (not borrowed), temperature only.
    static func skills(of sources: [String], in record: SkillRecord) -> [LearnReport.Skill] {
        sources.flatMap { id in
            LeadBucket.allCases.compactMap { bucket -> LearnReport.Skill? in
                guard let field = record.fields[SkillKey(.temperature, bucket)], field.borrowedFrom == nil, let skill = field.sources[id] else { return nil }
                return LearnReport.Skill(provider: id, lead: bucket, basis: record.bases[id] ?? .none, pairs: Int(skill.pairs.rounded()),
                                         bias: skill.bias, rmse: skill.meanSquareError.squareRoot(), weight: field.weights[id] ?? 0)
            }
        }
    }

    /// Asks each source that publishes past forecasts, one request each, through its cache and limits (or its recordings).
    func pastForecasts(_ sources: LearnSources, place: Place, days: Int, timeout: Double, asOf: Date) async -> Gathered {
        var gathered = Gathered()
        for source in sources.forecasters {
            guard let provider = source.provider else {
                gathered.withoutPast += source.binding.provider.sources.map(\.id)
                continue
            }
            do {
                let request = provider.pastForecastRequest(near: place, days: min(days, provider.pastDaysLimit))
                let response = try await Self.send(request, over: source.transport, timeout: timeout)
                gathered.forecasts += try provider.pastForecasts(in: response, now: source.recordedAt() ?? asOf)
                await source.cache?.commit()
                gathered.sources += provider.sources.map(\.id)
            } catch {
                gathered.failures.append(ProviderError(error.code, "\(provider.id): no past forecasts: \(error.message)", reason: error.reason))
            }
            gathered.fromCache += source.cache?.answeredFromCache ?? 0
            if let recordedAt = source.recordedAt() { gathered.recordedAt = max(gathered.recordedAt ?? recordedAt, recordedAt) }
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
