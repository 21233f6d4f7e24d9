import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarHTTP
import IsobarStore

/// The `isobar` command: parses arguments, loads configuration, runs the engine and renders, returning an exit code.
public struct IsobarCommandLine: Sendable {
    /// The version printed by `--version` (and `-V`) and sent as the user agent.
    public static let version = "0.1.0"

    let environment: [String: String]
    let output: any OutputSink
    let errors: any OutputSink
    let registry: ProviderRegistry
    let makeLiveTransport: @Sendable () -> any Transport
    let time: any TimeSource
    let beforeCityChange: @Sendable () async -> Void
    let prompter: Prompter

    /// A command line over the given environment, streams, adapters, network transport (made only when a provider goes live) and clock;
    /// `beforeCityChange` is a test aid, awaited by `cities remove` and `cities move` after the list is read and before it is changed,
    /// where another process's change can fall; `prompter` is where `setup` asks its questions.
    public init(environment: [String: String], output: any OutputSink = StandardStream.output,
                errors: any OutputSink = StandardStream.error, registry: ProviderRegistry = .standard(),
                liveTransport: @escaping @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/\(IsobarCommandLine.version)") },
                time: any TimeSource = SystemTime(), beforeCityChange: @escaping @Sendable () async -> Void = {},
                prompter: Prompter = .standardInput()) {
        self.environment = environment
        self.output = output
        self.errors = errors
        self.registry = registry
        self.makeLiveTransport = liveTransport
        self.time = Self.shiftedClock(time, environment: environment) ?? time
        self.beforeCityChange = beforeCityChange
        self.prompter = prompter
    }

    /// The variable that moves Isobar's clock by a number of seconds (see `ShiftedTime`).
    static let timeShiftVariable = "ISOBAR_TIME_SHIFT"

    /// `time` moved by `ISOBAR_TIME_SHIFT` seconds, when that is set to a finite number within ±100 years.
    private static func shiftedClock(_ time: any TimeSource, environment: [String: String]) -> (any TimeSource)? {
        guard let text = environment[timeShiftVariable], let seconds = Double(text), seconds.isFinite,
              abs(seconds) <= 100 * 365.25 * 86_400 else { return nil }
        return ShiftedTime(base: time, shiftSeconds: seconds)
    }

    /// Runs `isobar` with `arguments` (without the program name) and returns the exit code; on the global executor, whoever
    /// the caller (the program's top-level code runs on the main actor).
    @concurrent public func run(_ arguments: [String]) async -> Int32 {
        if let text = environment[Self.timeShiftVariable], Self.shiftedClock(SystemTime(), environment: environment) == nil {
            return fail("\(Self.timeShiftVariable) must be a number of seconds within ±100 years, not '\(text.prefix(40))'", .usage)
        }
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
        } catch let error as StorageError {
            return fail(error.message, .configuration)
        } catch let error as UserDataError {
            return fail(error.message, .configuration)
        } catch {
            return fail("unexpected error: \(error)", .internalError)
        }
    }

    private func fail(_ message: String, _ code: ExitCode) -> Int32 {
        errors.write("isobar: \(message)\n")
        return code.rawValue
    }

    /// True when `text` names a place the offline directory knows (or is a coordinate), without touching the network.
    private func isPlace(_ text: String) -> Bool {
        guard let resolver = try? placeResolver() else { return false }
        return (try? resolver.resolveOffline(text)) != nil
    }

    /// Prints a warning line on stderr.
    func warn(_ message: String) { errors.write("isobar: warning: \(message)\n") }

    private func dispatch(_ arguments: [String]) async throws -> ExitCode {
        guard let first = arguments.first else {
            return try await HomeCommand.run(Invocation(command: Commands.home), on: self)
        }
        switch first {
        case "--help", "-h", "help":
            let defaults = Invocation(command: Commands.home)
            if arguments.count > 1, let command = CommandTable.named(arguments[1]) {
                output.write(HelpText.command(command.spec, configuration: try? loadConfiguration(defaults)))
            } else {
                let missingData = DataDirectory.hasDemo(environment: environment) ? nil : DataDirectory.notFoundMessage(environment: environment)
                output.write(HelpText.overview(registry: registry, configuration: try? loadConfiguration(defaults), missingData: missingData))
            }
            return .success
        case "--version", "-V":
            output.write("isobar \(Self.version)\n")
            return .success
        default:
            break
        }
        guard let command = CommandTable.named(first) else {
            if first.hasPrefix("-") {
                // `isobar --demo` and the like: the home view with options.
                return try await HomeCommand.run(try Invocation(arguments, command: Commands.home), on: self)
            }
            let names = CommandTable.specs.map { $0.name }
            if let suggestion = Spelling.closest(to: first, in: names), !isPlace(first) {
                throw UsageError("unknown command '\(first)'; did you mean '\(suggestion)'? (commands are \(names.joined(separator: ", ")))")
            }
            // `isobar PLACE [options]`: the home view of that place.
            return try await runDetail(try Invocation(arguments, command: Commands.place))
        }
        var invocation = try Invocation(Array(arguments.dropFirst()), command: command.spec)
        if command.spec.name == Commands.cache.name && invocation.positionals.isEmpty {
            invocation.positionals = ["stats"]
        }
        if invocation.options.help {
            output.write(HelpText.command(command.spec, configuration: try? loadConfiguration(invocation)))
            return .success
        }
        return try await command.run(invocation, on: self)
    }
}
