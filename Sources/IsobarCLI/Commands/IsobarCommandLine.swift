import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarHTTP
import IsobarStore

/// The `isobar` command: parses arguments, loads configuration, runs the engine and renders, returning an exit code.
public struct IsobarCommandLine: Sendable {
    /// The version printed by `--version` and sent as the user agent.
    public static let version = "0.1.0"

    let environment: [String: String]
    let output: any OutputSink
    let errors: any OutputSink
    let registry: ProviderRegistry
    let makeLiveTransport: @Sendable () -> any Transport
    let time: any TimeSource

    /// A command line over the given environment, streams, adapters, network transport (made only when a provider goes live) and clock.
    public init(environment: [String: String], output: any OutputSink = StandardStream.output,
                errors: any OutputSink = StandardStream.error, registry: ProviderRegistry = .standard(),
                liveTransport: @escaping @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/\(IsobarCommandLine.version)") },
                time: any TimeSource = SystemTime()) {
        self.environment = environment
        self.output = output
        self.errors = errors
        self.registry = registry
        self.makeLiveTransport = liveTransport
        self.time = time
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
        } catch let error as StoreError {
            return fail(error.message, .configuration)
        } catch {
            return fail("unexpected error: \(error)", .internalError)
        }
    }

    private func fail(_ message: String, _ code: ExitCode) -> Int32 {
        errors.write("isobar: \(message)\n")
        return code.rawValue
    }

    /// Prints a warning line on stderr.
    func warn(_ message: String) { errors.write("isobar: warning: \(message)\n") }

    private func dispatch(_ arguments: [String]) async throws -> ExitCode {
        guard let first = arguments.first else {
            return try await runHome(ParsedArguments())
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
                // `isobar --demo` and the like: the home view with options.
                return try await runHome(try ArgumentParser.parse(arguments, command: Commands.home, options: Commands.home.options))
            }
            let suggestion = Spelling.closest(to: first, in: Commands.all.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("unknown command '\(first)'\(suggestion); commands are \(Commands.all.map(\.name).joined(separator: ", "))")
        }
        let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), command: command, options: command.options)
        if parsed.has("help") {
            output.write(HelpText.command(command, configuration: try? loadConfiguration(parsed)))
            return .success
        }
        switch command.name {
        case "compare": return try await runWeather(.compare, parsed)
        case "now": return try await runWeather(.now, parsed)
        case "cache": return try runCache(parsed)
        case "search": return try await runSearch(parsed)
        case "cities": return try await runCities(parsed)
        case "home": return try await runHome(parsed)
        case "providers": return try runProviders(parsed)
        default:
            let days = try parsed["days"].map { text throws(UsageError) in
                guard let days = Int(text), (1...16).contains(days) else { throw UsageError("--days takes a whole number from 1 to 16, not '\(text)'") }
                return days
            } ?? 7
            return try await runWeather(.forecast(days: days, hourly: parsed.has("hourly")), parsed)
        }
    }
}
