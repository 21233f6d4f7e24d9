import FixtureReplay
import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarHTTP
import IsobarRender
import IsobarStore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Everything a weather command needs before it knows the place.
struct WeatherSetup {
    var configuration: Configuration
    var bindings: [ProviderBinding]
    var store: Store?
    var shared: SharedStoreSetup?
    var live: LazyTransport
    var recorders: [(id: String, recorder: RecordingTransport)]
    var options: EngineOptions
    /// How the answers are merged: configured weights, families, and what is learned from the record.
    var consensus: Consensus
    var minimum: Int?
    var units: UnitSystem
    var diagnostics: DiagnosticLog
    /// True with `--demo`: learned weights come from the demo's recorded history, never the user's archive.
    var demo = false
    /// The alert sources, whose warnings a weather view shows first; empty when none is configured or asked.
    var alertBindings: [ProviderBinding] = []
}

extension CommandContext {
    /// The live transport when places may be looked up online (some provider is live, and not --offline).
    func networkTransport(_ setup: WeatherSetup, _ parsed: Invocation) -> (any Transport)? {
        setup.store != nil && !parsed.options.offline ? setup.live : nil
    }

    /// Checks the options and builds the providers that give `kinds` (weather unless told), their transports and the store;
    /// with `air`, the air sources (`air_providers`) in the place of the weather's.
    func weatherSetup(_ parsed: Invocation, kinds: Set<DataKind> = DataKind.weather, air: Bool = false) async throws -> WeatherSetup {
        let options = engineOptions(parsed.options)
        let minimum = parsed.options.minimumProviders
        var configuration = try loadConfiguration(parsed)
        // The weather's providers still find places by name for the air command.
        let weatherProviders = configuration.providers
        let registry = air ? self.registry.air : self.registry
        if air { configuration.providers = configuration.airProviders ?? registry.defaultConfiguration().providers }
        warnAboutReadableKeys(configuration)
        if let directory = parsed.options.replayDirectory {
            for index in configuration.providers.indices {
                configuration.providers[index].replay = directory + "/" + configuration.providers[index].id
            }
        }
        if let wanted = parsed.options.providers { configuration.providers = try selectProviders(wanted, configuration) }

        let live = LazyTransport(make: makeLiveTransport)
        var recorders: [(id: String, recorder: RecordingTransport)] = []
        let diagnostics = diagnosticLog(parsed)
        let errors = errors
        let verbose = parsed.options.verbose
        let log: @Sendable (String) -> Void = { if verbose { errors.write("isobar: note: \($0)\n") } }
        // The command's deadline bounds what building the providers asks too (a plug-in's `describe`).
        let deadline = Date().addingTimeInterval(options.timeoutSeconds)
        let built = try await registry.bindings(for: configuration, environment: environment, time: time, log: log, deadline: deadline,
                                                   live: { live }, userFile: userFile(for: configuration),
                                                   wrapLive: { entry, transport in
            guard (parsed.options.recordDirectory != nil) else { return transport }
            let recorder = RecordingTransport(base: transport, clock: { [time] in time.now() })
            recorders.append((entry.id, recorder))
            return recorder
        })
        guard !built.isEmpty else { throw ConfigurationError("no provider is enabled in \(configuration.file ?? "the configuration")") }
        // Alert sources answer `alerts` alone and weather sources never alerts: each command asks the ones of its kinds.
        let bindings = built.filter { !$0.provider.capabilities.kinds.isDisjoint(with: kinds) }
        guard !bindings.isEmpty else {
            let (what, advice) = kinds == [.alerts] ? ("alert source", "; add an entry of type nws-alerts, met-alerts, meteoalarm or openweathermap-alerts") : ("weather provider", "")
            throw ConfigurationError("no \(what) is enabled in \(configuration.file ?? "the configuration")\(advice)")
        }
        if let minimum, minimum > bindings.count {
            throw UsageError("--min-providers \(minimum) is more than the \(bindings.count) provider(s) asked")
        }
        let consensus = Consensus(weights: try weights(parsed.options.weights, configuration), familyWeight: configuration.familyWeight,
                                  learning: try learningTemplate(parsed.options, configuration))
        let alertBindings = kinds.contains(.alerts) ? [] : built.filter { $0.provider.capabilities.kinds.contains(.alerts) }
        // Live alert sources keep their answers and polls in the store too (their polling floors outlive the run).
        let store = (bindings + alertBindings).contains { $0.policy != nil } ? await openStore(parsed, configuration) : nil
        let shared = try openSharedStore(parsed, configuration, bindings: bindings).flatMap { bindings.contains { $0.policy != nil } ? $0 : nil }
        let units = parsed.options.units ?? configuration.units
        if air { configuration.providers = weatherProviders }
        var setup = WeatherSetup(configuration: configuration, bindings: bindings, store: store, shared: shared, live: live, recorders: recorders,
                                 options: options, consensus: consensus, minimum: minimum, units: units, diagnostics: diagnostics, demo: parsed.options.demo)
        setup.alertBindings = alertBindings
        return setup
    }

    /// Asks every provider about the place, renders, and returns the exit code.
    func showWeather(_ view: View, _ resolution: Resolution, _ setup: WeatherSetup, _ parsed: Invocation, failOn: AlertSeverity? = nil) async -> ExitCode {
        let place = resolution.place.withZoneOffset(at: time.now())
        let names = RenderContext.names(of: setup.bindings.map(\.provider))
        var context = RenderContext(
            view: view, place: place, units: setup.units, providers: names.sources,
            attributions: RenderContext.attributions(of: setup.bindings.map(\.provider)),
            color: output.isTerminal && environment["NO_COLOR"] == nil, now: time.now(),
            query: parsed.positionals.last ?? place.name, runnersUp: resolution.runnersUp, width: width)
        context.configured = names.configured
        context.minimumAnswers = setup.minimum ?? 1
        context.isDemo = setup.demo
        if setup.demo { context.demoPlaces = demoPlaceNames() }
        let presentation = Presentation(parsed.options, environment: environment)
        if presentation.plain { context.countryName = countryNames()(place.countryCode) }
        let setup = await learnOnFirstUse(await learned(setup, near: place), place: place, query: parsed.positionals.last ?? place.name, parsed)
        // The observation is asked only once a forecast came: with nothing fetched there is nothing to verify it against.
        var observation: Task<Bool, Never>?
        let verbose = parsed.options.verbose
        var outcomes: [ProviderOutcome] = []
        var reports: [WeatherReport] = []
        var merged: ConsensusResult?
        // The air line of `now` and the home view, and the air rows of `compare`, asked alongside the weather when air
        // sources are configured.
        let showsAir = (view == .now || view == .detail) && parsed.options.format.isForPeople
        let air: Task<AirReport?, Never>? = showsAir || view == .compare ? Task(executorPreference: taskExecutor) { [self, setup] in
            await airReport(place, setup, parsed)
        } : nil
        // The renderer is made at the first event: `compare` waits for the air sources then (their rows add CSV columns).
        var made: (any Renderer)?
        func renderer() async -> any Renderer {
            if let made { return made }
            if view == .compare, let report = await air?.value, !report.sources.isEmpty { context.air = report }
            let renderer = presentation.renderer(parsed.options.format, context: context, output: output)
            made = renderer
            return renderer
        }
        let waiting = WaitingNotice(sink: errors)
        let live = setup.bindings.filter { $0.policy != nil }.count
        if live > 0 { waiting.start("asking \(live) provider\(live == 1 ? "" : "s")…", time: time) }
        defer { waiting.stop() }
        // The warnings are asked alongside the weather and written before its first line.
        let alerts = AlertsFirst.task(setup.alertBindings, place: place, time: time, timeoutSeconds: setup.options.timeoutSeconds,
                                      cache: setup.store, sendsValidators: setup.options.sendsValidators, executor: taskExecutor)
        var alertsWritten = alerts == nil
        var warnings: AlertsReport?
        for await event in engine(setup).run(WeatherRequest(place: place, kinds: presentation.kinds(for: view, format: parsed.options.format))) {
            // Nothing else may share the terminal line with the notice.
            if !parsed.options.format.isForPeople || event.providerID == nil { waiting.stop() }
            if !alertsWritten, let alerts {
                alertsWritten = true
                waiting.stop()
                warnings = await alerts.value
                if let warnings {
                    AlertsFirst.write(warnings, format: parsed.options.format, plain: presentation.plain, query: context.query, width: width,
                                      to: output)
                }
            }
            if let outcome = event.outcome, !event.isOutsideCoverage { outcomes.append(outcome) }
            if case .result(_, let result) = event {
                reports.append(result.report)
                if observation == nil {
                    observation = Task(executorPreference: taskExecutor) { [self, setup] in await observe(place, setup, verbose: verbose) }
                }
            }
            if case .consensus(_, let consensus) = event { merged = consensus }
            var renderer = await renderer()
            renderer.handle(event)
            made = renderer
        }
        var renderer = await renderer()
        renderer.finish()
        if showsAir, let report = await air?.value, let line = AirGlance.line(report, plain: presentation.plain) {
            output.write(presentation.plain ? line : TextWrap.fit(line, width: width))
        }
        await setup.shared?.finish()
        await archiveLive(reports, setup.configuration)
        if observation == nil { noteObservationSkipped(setup, verbose: parsed.options.verbose) }
        if await !(observation?.value ?? false) { await archiveProxyObservation(reports, place: place, setup) }
        if case .forecast(let days, _) = view, let merged, !reports.isEmpty { noteShortForecast(asked: days, merged, reports, setup) }
        saveRecordings(setup.recorders, parsed)
        if let failOn, warnings?.hasAlert(atLeast: failOn) == true { return .alertInForce }
        return exitCode(outcomes, minimum: setup.minimum)
    }

    /// The configured air sources' report for the place, over the weather's store and transport; nil when none is configured
    /// or none can be set up.
    func airReport(_ place: Place, _ setup: WeatherSetup, _ parsed: Invocation) async -> AirReport? {
        guard var entries = setup.configuration.airProviders, !entries.isEmpty else { return nil }
        if let directory = parsed.options.replayDirectory {
            for index in entries.indices { entries[index].replay = directory + "/" + entries[index].id }
        }
        var configuration = setup.configuration
        configuration.providers = entries
        let live = setup.live
        guard let bindings = try? await registry.air.bindings(for: configuration, environment: environment, time: time, live: { live }),
              !bindings.isEmpty else { return nil }
        var air = setup
        air.bindings = bindings
        return await AirCommand.gather(place, air, self).report
    }

    /// The engine over the command's providers and store; its tasks prefer `taskExecutor`, else the command line's.
    func engine(_ setup: WeatherSetup, taskExecutor: (any TaskExecutor)? = nil) -> Engine<Consensus> {
        let storage = engineStorage(setup.store, shared: setup.shared, bindings: setup.bindings, maxAgeSeconds: setup.options.maxAgeSeconds)
        return Engine(consensus: setup.consensus, bindings: setup.bindings, storage: storage, options: setup.options, time: time,
                      diagnostics: setup.diagnostics, taskExecutor: taskExecutor ?? self.taskExecutor,
                      racesOnTaskExecutor: taskExecutor == nil && self.taskExecutor != nil)
    }

    /// A log of storage problems, shown on stderr under `--verbose`.
    func diagnosticLog(_ parsed: Invocation) -> DiagnosticLog {
        let errors = errors
        let verbose = parsed.options.verbose
        return DiagnosticLog { diagnostic in
            if verbose { errors.write("isobar: note: \(diagnostic)\n") }
        }
    }

    /// Says how many of the days asked for are forecast, and why, when there are fewer.
    private func noteShortForecast(asked: Int, _ consensus: ConsensusResult, _ reports: [WeatherReport], _ setup: WeatherSetup) {
        let window = ForecastWindow(reports: reports, now: time.now(), days: asked)
        let offset = consensus.current?.utcOffsetSeconds ?? consensus.daily.first?.utcOffsetSeconds ?? 0
        let shown = window.dates(consensus.daily, utcOffsetSeconds: offset, date: \.date).count
        guard shown < asked else { return }
        let horizons = setup.bindings.filter { binding in reports.contains { $0.providerID == binding.provider.id } }
            .map { "\($0.provider.displayName) \($0.provider.capabilities.horizonDays) days" }
        errors.write("isobar: note: \(shown) of the \(asked) days asked for are forecast; the providers that answered forecast "
            + "\(horizons.joined(separator: ", ")) ahead (days computed from steps count only when complete)\n")
    }

    /// The places the bundled recordings cover, by name, in their order (said when the demo is asked about another).
    func demoPlaceNames() -> [String] {
        (try? places().places.map(\.name)) ?? []
    }

    /// 0 when every provider answered (now or from a fresh cache), 2 when some failed or answered stale, 3 when none answered,
    /// 4 when fewer than `--min-providers` answered.
    func exitCode(_ outcomes: [ProviderOutcome], minimum: Int?) -> ExitCode {
        let answered = outcomes.filter { [.ok, .cached, .stale].contains($0) }.count
        if let minimum, answered < minimum {
            warn("only \(answered) provider(s) answered; --min-providers asks for \(minimum)")
            return .quorumNotMet
        }
        if answered == 0 { return .noneAnswered }
        return outcomes.allSatisfy { $0 == .ok || $0 == .cached } ? .success : .partial
    }

    private func engineOptions(_ given: CommandOptions) -> EngineOptions {
        var options = EngineOptions()
        // Recording asks every provider again, so that a warm cache never leaves the cassettes empty, and for whole answers.
        // `--refresh` asks again too, but conditionally: a 304 confirms the kept answer with the origin.
        options.readCache = !given.refresh && given.recordDirectory == nil
        options.sendsValidators = given.recordDirectory == nil
        options.offline = given.offline
        if let seconds = given.timeoutSeconds { options.timeoutSeconds = seconds }
        options.maxAgeSeconds = given.maxAgeSeconds
        return options
    }

    /// Weights from the configuration, overridden by `--weights id=w,...`.
    private func weights(_ overrides: [WeightOverride], _ configuration: Configuration) throws(UsageError) -> [String: Double] {
        var weights: [String: Double] = [:]
        for entry in configuration.providers { if let weight = entry.weight { weights[entry.id] = weight } }
        let known = configuration.providers.map(\.id)
        for override in overrides {
            guard known.contains(override.provider) else {
                let suggestion = Spelling.closest(to: override.provider, in: known).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError("--weights names unknown provider '\(override.provider)'\(suggestion)")
            }
            weights[override.provider] = override.weight
        }
        return weights
    }

    /// The entries `--providers` names, by any id output prints (`open-meteo`, or one model: `open-meteo/ecmwf_ifs025`).
    private func selectProviders(_ wanted: [String], _ configuration: Configuration) throws(UsageError) -> [ProviderEntry] {
        var references: [SourceReference] = []
        for id in wanted { references.append(try SourceReference(id, in: configuration)) }
        return SourceReference.select(references, from: configuration)
    }

    func places() throws(PlaceError) -> PlaceDirectory {
        guard let directory = DataDirectory.locate(environment: environment),
              let data = FileManager.default.contents(atPath: directory + "/places.json") else { return PlaceDirectory() }
        return try PlaceDirectory(bytes: Array(data), file: directory + "/places.json")
    }

    func saveRecordings(_ recorders: [(id: String, recorder: RecordingTransport)], _ parsed: Invocation) {
        guard let directory = parsed.options.recordDirectory else { return }
        for (id, recorder) in recorders {
            do {
                if let path = try recorder.save(to: directory + "/" + id) {
                    errors.write("isobar: recorded \(recorder.interactions.count) exchange(s) of \(id) to \(path)\n")
                }
            } catch {
                errors.write("isobar: \(error.message)\n")
            }
        }
    }

    /// Warns when a configuration file holding an API key can be read by group or others.
    func warnAboutReadableKeys(_ configuration: Configuration) {
        guard let file = configuration.file, configuration.providers.contains(where: { $0.apiKey != nil }) else { return }
        var info = stat()
        guard stat(file, &info) == 0, info.st_mode & 0o077 != 0 else { return }
        errors.write("isobar: warning: \(file) holds an API key and is readable by others; run chmod 600 \(file)\n")
    }
}

/// Makes the real transport on first use, so answers served from the cache never start libcurl; counts the requests sent.
final class LazyTransport: Transport {
    private let make: @Sendable () -> any Transport
    private let made = Mutex<(any Transport)?>(nil)
    private let sent = Atomic<Int>(0)

    init(make: @escaping @Sendable () -> any Transport) { self.make = make }

    /// Requests sent through it so far (each attempt counts).
    var requestCount: Int { sent.load(ordering: .relaxed) }

    /// The transport's I/O thread as a task executor, making the transport now; nil when it is not a `CurlTransport` (or
    /// libcurl cannot be used).
    func loopExecutor() -> LoopExecutor? {
        (transport as? CurlTransport)?.loopExecutor()
    }

    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        sent.add(1, ordering: .relaxed)
        return try await transport.send(request)
    }

    /// The transport, made on first use.
    private var transport: any Transport {
        made.withLock { made in
            if let made { return made }
            let created = make()
            made = created
            return created
        }
    }
}
