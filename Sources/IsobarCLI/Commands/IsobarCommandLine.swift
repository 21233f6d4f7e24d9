import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarHTTP
import IsobarRender
import IsobarStore

/// The `isobar` command: parses arguments, loads configuration, runs the engine and renders, returning an exit code.
public struct IsobarCommandLine: Sendable {
    /// The version printed by `--version` (and `-V`) and sent as the user agent.
    public static let version = "0.1.0"

    let environment: [String: String]
    private(set) var output: any OutputSink
    private(set) var errors: any OutputSink
    let registry: ProviderRegistry
    let makeLiveTransport: @Sendable () -> any Transport
    let time: any TimeSource
    let beforeCityChange: @Sendable () async -> Void
    /// Where the engine's tasks run (the program's main thread, see `CallingThreadExecutor`); nil: the runtime's pool.
    let taskExecutor: (any TaskExecutor)?
    let prompter: Prompter

    /// A command line over the given environment, streams, adapters, network transport (made only when a provider goes live) and clock;
    /// `beforeCityChange` is a test aid, awaited by `cities remove` and `cities move` after the list is read and before it is changed,
    /// where another process's change can fall; `taskExecutor` runs the engine's tasks (nil: the runtime's pool); `prompter` is where
    /// `setup` asks its questions.
    public init(environment: [String: String], output: any OutputSink = StandardStream.output,
                errors: any OutputSink = StandardStream.error, registry: ProviderRegistry = .standard(),
                liveTransport: @escaping @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/\(IsobarCommandLine.version)") },
                time: any TimeSource = SystemTime(), beforeCityChange: @escaping @Sendable () async -> Void = {},
                taskExecutor: (any TaskExecutor)? = nil, prompter: Prompter = .standardInput()) {
        self.environment = environment
        self.output = output
        self.errors = TextCharset(environment: environment) == .ascii ? ASCIISink(base: errors, conversion: .fold) : errors
        self.registry = registry
        self.makeLiveTransport = liveTransport
        self.time = Self.shiftedClock(time, environment: environment) ?? time
        self.beforeCityChange = beforeCityChange
        self.taskExecutor = taskExecutor
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
            let code = try await dispatch(arguments)
            // Whatever the command did, a reader that went away is said by the status (see `ExitCode.outputClosed`).
            return (output.isClosed ? ExitCode.outputClosed : code).rawValue
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

    /// This command line with standard output put in ASCII for `text` when the locale is not UTF-8 (see `TextCharset`).
    func writing(_ text: OutputText) -> IsobarCommandLine {
        guard TextCharset(environment: environment) == .ascii else { return self }
        var copy = self
        switch text {
        case .people: copy.output = ASCIISink(base: output, conversion: .fold)
        case .jsonLines: copy.output = ASCIISink(base: output, conversion: .escapeJSON)
        case .csv: break
        }
        return copy
    }

    /// Prints a warning line on stderr.
    func warn(_ message: String) { errors.write("isobar: warning: \(message)\n") }

    private func dispatch(_ arguments: [String]) async throws -> ExitCode {
        guard let first = arguments.first else {
            return try await HomeCommand.run(Invocation(command: Commands.home), on: writing(.people))
        }
        switch first {
        case "--help", "-h", "help":
            let defaults = Invocation(command: Commands.home)
            let output = writing(.people).output
            if arguments.count > 1, let command = CommandTable.named(arguments[1]) {
                output.write(HelpText.command(command.spec, configuration: try? loadConfiguration(defaults)))
            } else {
                let missingData = DataDirectory.hasDemo(environment: environment) ? nil : DataDirectory.notFoundMessage(environment: environment)
                output.write(HelpText.overview(registry: registry, configuration: try? loadConfiguration(defaults), missingData: missingData))
            }
            return .success
        case "--version", "-V":
            writing(.people).output.write("isobar \(Self.version)\n")
            return .success
        default:
            break
        }
        guard let command = CommandTable.named(first) else {
            if first.hasPrefix("-") {
                // `isobar --demo` and the like: the home view with options.
                let invocation = try Invocation(arguments, command: Commands.home)
                return try await HomeCommand.run(invocation, on: writing(HomeCommand.writes(invocation)))
            }
            let names = CommandTable.specs.map { $0.name }
            if let suggestion = Spelling.closest(to: first, in: names), !isPlace(first) {
                throw UsageError("unknown command '\(first)'; did you mean '\(suggestion)'? (commands are \(names.joined(separator: ", ")))")
            }
            // `isobar PLACE [options]`: the home view of that place.
            let invocation = try Invocation(arguments, command: Commands.place)
            return try await writing(HomeCommand.writes(invocation)).runDetail(invocation)
        }
        var invocation = try Invocation(Array(arguments.dropFirst()), command: command.spec)
        if command.spec.name == Commands.cache.name && invocation.positionals.isEmpty {
            invocation.positionals = ["stats"]
        }
        if invocation.options.help {
            writing(.people).output.write(HelpText.command(command.spec, configuration: try? loadConfiguration(invocation)))
            return .success
        }
        return try await command.run(invocation, on: writing(command.writes(invocation)))
    }
}
