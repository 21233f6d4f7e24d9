import FixtureReplay
import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarStore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension IsobarCommandLine {
    /// Everything a weather command needs before it knows the place.
    struct WeatherSetup {
        var configuration: Configuration
        var bindings: [ProviderBinding]
        var store: Store?
        var live: LazyTransport
        var recorders: [(id: String, recorder: RecordingTransport)]
        var options: EngineOptions
        var minimum: Int?
        var units: UnitSystem
    }

    /// Runs compare, now or forecast.
    func runWeather(_ view: View, _ parsed: ParsedArguments) async throws -> ExitCode {
        let setup = try weatherSetup(parsed)
        let resolution = try await resolvePlace(parsed.positionals[0], network: networkTransport(setup, parsed), store: setup.store,
                                                geocoders: geocoders(setup.configuration))
        return await showWeather(view, resolution, setup, parsed)
    }

    /// The live transport when places may be looked up online (some provider is live, and not --offline).
    func networkTransport(_ setup: WeatherSetup, _ parsed: ParsedArguments) -> (any Transport)? {
        setup.store != nil && !parsed.has("offline") ? setup.live : nil
    }

    /// Checks the options and builds the providers, their transports and the store.
    func weatherSetup(_ parsed: ParsedArguments) throws -> WeatherSetup {
        if parsed.has("demo") && parsed.has("config") { throw UsageError("--demo and --config cannot be used together") }
        if parsed.has("record") && (parsed.has("demo") || parsed.has("replay")) {
            throw UsageError("--record asks live providers; it cannot be used with --demo or --replay")
        }
        if parsed.has("offline") && (parsed.has("refresh") || parsed.has("record")) {
            throw UsageError("--offline uses only the cache; it cannot be used with --refresh or --record")
        }
        var options = try engineOptions(parsed)
        let minimum = try parsed["min-providers"].map { text throws(UsageError) in
            guard let count = Int(text), count >= 1 else { throw UsageError("--min-providers takes a whole number of at least 1, not '\(text)'") }
            return count
        }
        var configuration = try loadConfiguration(parsed)
        warnAboutReadableKeys(configuration)
        if let directory = parsed["replay"] {
            for index in configuration.providers.indices {
                configuration.providers[index].replay = directory + "/" + configuration.providers[index].id
            }
        }
        if let list = parsed["providers"] { configuration.providers = try selectProviders(list, configuration) }

        let live = LazyTransport(make: makeLiveTransport)
        var recorders: [(id: String, recorder: RecordingTransport)] = []
        let bindings = try registry.bindings(for: configuration, environment: environment, live: { live }, wrapLive: { entry, transport in
            guard parsed.has("record") else { return transport }
            let recorder = RecordingTransport(base: transport)
            recorders.append((entry.id, recorder))
            return recorder
        })
        guard !bindings.isEmpty else { throw ConfigurationError("no provider is enabled in \(configuration.file ?? "the configuration")") }
        if let minimum, minimum > bindings.count {
            throw UsageError("--min-providers \(minimum) is more than the \(bindings.count) provider(s) asked")
        }
        options.weights = try weights(parsed["weights"], configuration)
        let store = bindings.contains { $0.policy != nil } ? openStore(parsed, configuration) : nil
        let units = parsed["units"].flatMap(UnitSystem.init(rawValue:)) ?? configuration.units
        return WeatherSetup(configuration: configuration, bindings: bindings, store: store, live: live, recorders: recorders,
                            options: options, minimum: minimum, units: units)
    }

    /// Asks every provider about the place, renders, and returns the exit code.
    func showWeather(_ view: View, _ resolution: Resolution, _ setup: WeatherSetup, _ parsed: ParsedArguments) async -> ExitCode {
        let place = resolution.place
        let context = RenderContext(
            view: view, place: place, units: setup.units,
            providers: setup.bindings.map { ($0.provider.id, $0.provider.displayName) },
            color: output.isTerminal && environment["NO_COLOR"] == nil, now: time.now(),
            query: parsed.positionals.last ?? place.name, runnersUp: resolution.runnersUp)
        var renderer: any Renderer = parsed["format"] == "jsonl"
            ? JSONLinesRenderer(context: context, output: output) : TableRenderer(context: context, output: output)
        var outcomes: [ProviderOutcome] = []
        let engine = Engine(bindings: setup.bindings, store: setup.store, options: setup.options, time: time)
        for await event in engine.run(WeatherRequest(place: place, kinds: view.kinds)) {
            switch event {
            case .result(let report): outcomes.append(ProviderOutcome(report.freshness))
            case .failure(_, let error): outcomes.append(ProviderOutcome(error))
            case .consensus: break
            }
            renderer.handle(event)
        }
        renderer.finish()
        saveRecordings(setup.recorders, parsed)
        return exitCode(outcomes, minimum: setup.minimum)
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

    private func engineOptions(_ parsed: ParsedArguments) throws(UsageError) -> EngineOptions {
        var options = EngineOptions()
        options.readCache = !parsed.has("refresh")
        options.offline = parsed.has("offline")
        if let text = parsed["timeout"] {
            guard let seconds = Double(text), seconds > 0, seconds <= 600 else {
                throw UsageError("--timeout takes seconds between 0 and 600, not '\(text)'")
            }
            options.timeoutSeconds = seconds
        }
        if let text = parsed["max-age"] {
            guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
                throw UsageError("--max-age takes a number of seconds (0 or more), not '\(text)'")
            }
            options.maxAgeSeconds = seconds
        }
        return options
    }

    /// Weights from the configuration, overridden by `--weights id=w,...`.
    private func weights(_ text: String?, _ configuration: Configuration) throws(UsageError) -> [String: Double] {
        var weights: [String: Double] = [:]
        for entry in configuration.providers { if let weight = entry.weight { weights[entry.id] = weight } }
        guard let text else { return weights }
        let known = configuration.providers.map(\.id)
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces() }
            guard parts.count == 2, let weight = Double(parts[1]), weight >= 0, weight.isFinite else {
                throw UsageError("--weights takes id=weight pairs such as open-meteo=2, not '\(pair)'")
            }
            guard known.contains(parts[0]) else {
                let suggestion = Spelling.closest(to: parts[0], in: known).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError("--weights names unknown provider '\(parts[0])'\(suggestion)")
            }
            weights[parts[0]] = weight
        }
        return weights
    }

    private func selectProviders(_ list: String, _ configuration: Configuration) throws(UsageError) -> [ProviderEntry] {
        let wanted = list.split(separator: ",").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
        guard !wanted.isEmpty else { throw UsageError("--providers needs at least one provider id") }
        let known = configuration.providers.map(\.id)
        for id in wanted where !known.contains(id) {
            let suggestion = Spelling.closest(to: id, in: known).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("unknown provider '\(id)'\(suggestion); configured: \(known.joined(separator: ", "))")
        }
        return configuration.providers.filter { wanted.contains($0.id) }.map { entry in
            var enabled = entry
            enabled.enabled = true
            return enabled
        }
    }

    func places() throws(PlaceError) -> PlaceDirectory {
        guard let directory = DataDirectory.locate(environment: environment),
              let data = FileManager.default.contents(atPath: directory + "/places.json") else { return PlaceDirectory() }
        return try PlaceDirectory(bytes: Array(data), file: directory + "/places.json")
    }

    private func saveRecordings(_ recorders: [(id: String, recorder: RecordingTransport)], _ parsed: ParsedArguments) {
        guard let directory = parsed["record"] else { return }
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

/// Makes the real transport on first use, so answers served from the cache never start libcurl.
final class LazyTransport: Transport {
    private let make: @Sendable () -> any Transport
    private let made = Mutex<(any Transport)?>(nil)

    init(make: @escaping @Sendable () -> any Transport) { self.make = make }

    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        let transport = made.withLock { made in
            if let made { return made }
            let created = make()
            made = created
            return created
        }
        return try await transport.send(request)
    }
}
