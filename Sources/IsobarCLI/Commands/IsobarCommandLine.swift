import FixtureReplay
import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarHTTP
#if canImport(Glibc)
import Glibc
#endif

/// The `isobar` command: parses arguments, loads configuration, runs the engine and renders, returning an exit code.
public struct IsobarCommandLine: Sendable {
    /// The version printed by `--version` and sent as the user agent.
    public static let version = "0.1.0"

    private let environment: [String: String]
    private let output: any OutputSink
    private let errors: any OutputSink
    private let registry: ProviderRegistry
    private let makeLiveTransport: @Sendable () -> any Transport

    /// A command line over the given environment, streams, adapters and network transport (made only when a provider goes live).
    public init(environment: [String: String], output: any OutputSink = StandardStream.output,
                errors: any OutputSink = StandardStream.error, registry: ProviderRegistry = .standard(),
                liveTransport: @escaping @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/\(IsobarCommandLine.version)") }) {
        self.environment = environment
        self.output = output
        self.errors = errors
        self.registry = registry
        self.makeLiveTransport = liveTransport
    }

    /// Runs `isobar` with `arguments` (without the program name) and returns the exit code.
    public func run(_ arguments: [String]) async -> Int32 {
        do {
            return try await dispatch(arguments).rawValue
        } catch let error as UsageError {
            return fail("\(error.message)", .usage)
        } catch let error as PlaceError {
            return fail(error.message, .badPlace)
        } catch let error as ConfigurationError {
            return fail(error.message, .configuration)
        } catch {
            return fail("unexpected error: \(error)", .internalError)
        }
    }

    private func fail(_ message: String, _ code: ExitCode) -> Int32 {
        errors.write("isobar: \(message)\n")
        return code.rawValue
    }

    private func dispatch(_ arguments: [String]) async throws -> ExitCode {
        guard let first = arguments.first else {
            output.write(HelpText.overview(registry: registry, configuration: try? loadConfiguration(ParsedArguments())))
            return .success
        }
        switch first {
        case "--help", "-h", "help":
            if arguments.count > 1, let command = Commands.all.first(where: { $0.name == arguments[1] }) {
                output.write(HelpText.command(command, configuration: try? loadConfiguration(ParsedArguments())))
            } else {
                output.write(HelpText.overview(registry: registry, configuration: try? loadConfiguration(ParsedArguments())))
            }
            return .success
        case "--version":
            output.write("isobar \(Self.version)\n")
            return .success
        default:
            break
        }
        guard let command = Commands.all.first(where: { $0.name == first }) else {
            if first.hasPrefix("-") {
                throw UsageError("unknown option '\(first)'; put options after a command, e.g. isobar compare Minsk --demo")
            }
            let suggestion = Spelling.closest(to: first, in: Commands.all.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("unknown command '\(first)'\(suggestion); commands are \(Commands.all.map(\.name).joined(separator: ", "))")
        }
        let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), command: command, options: command.options)
        if parsed.has("help") {
            output.write(HelpText.command(command, configuration: try? loadConfiguration(parsed)))
            return .success
        }
        let view: View
        switch command.name {
        case "compare": view = .compare
        case "now": view = .now
        default:
            let days = try parsed["days"].map { text throws(UsageError) in
                guard let days = Int(text), (1...16).contains(days) else { throw UsageError("--days takes a whole number from 1 to 16, not '\(text)'") }
                return days
            } ?? 7
            view = .forecast(days: days, hourly: parsed.has("hourly"))
        }
        return try await runWeather(view, parsed)
    }

    /// The configuration a command uses: `--config`, `--demo`, the user's file, the bundled default, or built-in defaults.
    func loadConfiguration(_ parsed: ParsedArguments) throws(ConfigurationError) -> Configuration {
        let dataDirectory = DataDirectory.locate(environment: environment)
        if let path = parsed["config"] {
            return try Configuration.load(path: path)
        }
        if parsed.has("demo") {
            guard let dataDirectory else {
                throw ConfigurationError("cannot find the bundled data (config/demo.json); set ISOBAR_DATA_DIR to the repository's config folder")
            }
            return try Configuration.load(path: dataDirectory + "/demo.json")
        }
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["HOME"].map { $0 + "/.config" }
        if let configHome, FileManager.default.fileExists(atPath: configHome + "/isobar/config.json") {
            return try Configuration.load(path: configHome + "/isobar/config.json")
        }
        if let dataDirectory, FileManager.default.fileExists(atPath: dataDirectory + "/isobar.json") {
            return try Configuration.load(path: dataDirectory + "/isobar.json")
        }
        return Configuration(units: .metric, providers: [
            ProviderEntry(id: "openweathermap", type: "openweathermap", apiKeyEnv: "OPENWEATHERMAP_API_KEY", enabled: true),
            ProviderEntry(id: "open-meteo", type: "open-meteo", enabled: true),
        ], file: nil)
    }

    private func places() throws(PlaceError) -> PlaceDirectory {
        guard let directory = DataDirectory.locate(environment: environment),
              let data = FileManager.default.contents(atPath: directory + "/places.json") else { return PlaceDirectory() }
        return try PlaceDirectory(bytes: Array(data), file: directory + "/places.json")
    }

    private func runWeather(_ view: View, _ parsed: ParsedArguments) async throws -> ExitCode {
        if parsed.has("demo") && parsed.has("config") { throw UsageError("--demo and --config cannot be used together") }
        if parsed.has("record") && (parsed.has("demo") || parsed.has("replay")) {
            throw UsageError("--record asks live providers; it cannot be used with --demo or --replay")
        }
        var configuration = try loadConfiguration(parsed)
        warnAboutReadableKeys(configuration)
        if let directory = parsed["replay"] {
            for index in configuration.providers.indices {
                configuration.providers[index].replay = directory + "/" + configuration.providers[index].id
            }
        }
        if let list = parsed["providers"] {
            let wanted = list.split(separator: ",").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
            guard !wanted.isEmpty else { throw UsageError("--providers needs at least one provider id") }
            let known = configuration.providers.map(\.id)
            for id in wanted where !known.contains(id) {
                let suggestion = Spelling.closest(to: id, in: known).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError("unknown provider '\(id)'\(suggestion); configured: \(known.joined(separator: ", "))")
            }
            configuration.providers = configuration.providers.filter { wanted.contains($0.id) }
            for index in configuration.providers.indices { configuration.providers[index].enabled = true }
        }
        let place = try places().resolve(parsed.positionals[0])
        var liveTransport: (any Transport)?
        var recorders: [(id: String, recorder: RecordingTransport)] = []
        let bindings = try registry.bindings(for: configuration, environment: environment, live: {
            if let liveTransport { return liveTransport }
            let made = makeLiveTransport()
            liveTransport = made
            return made
        }, wrapLive: { entry, transport in
            guard parsed.has("record") else { return transport }
            let recorder = RecordingTransport(base: transport)
            recorders.append((entry.id, recorder))
            return recorder
        })
        guard !bindings.isEmpty else { throw ConfigurationError("no provider is enabled in \(configuration.file ?? "the configuration")") }

        let units = parsed["units"].flatMap(UnitSystem.init(rawValue:)) ?? configuration.units
        let context = RenderContext(
            view: view, place: place, units: units,
            providers: bindings.map { ($0.provider.id, $0.provider.displayName) },
            color: output.isTerminal && environment["NO_COLOR"] == nil, now: Date())
        var renderer: any Renderer = parsed["format"] == "jsonl"
            ? JSONLinesRenderer(context: context, output: output) : TableRenderer(context: context, output: output)
        var answered = 0
        var failed = 0
        for await event in Engine(bindings: bindings).run(WeatherRequest(place: place, kinds: view.kinds)) {
            switch event {
            case .result: answered += 1
            case .failure: failed += 1
            case .consensus: break
            }
            renderer.handle(event)
        }
        renderer.finish()
        if let directory = parsed["record"] {
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
        return answered == 0 ? .noneAnswered : failed > 0 ? .partial : .success
    }

    /// Warns when a configuration file holding an API key can be read by group or others.
    private func warnAboutReadableKeys(_ configuration: Configuration) {
        guard let file = configuration.file, configuration.providers.contains(where: { $0.apiKey != nil }) else { return }
        var info = stat()
        guard stat(file, &info) == 0, info.st_mode & 0o077 != 0 else { return }
        errors.write("isobar: warning: \(file) holds an API key and is readable by others; run chmod 600 \(file)\n")
    }
}
