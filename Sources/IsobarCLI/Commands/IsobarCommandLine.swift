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

    /// What every command runs with.
    let context: CommandContext

    /// A command line over the given environment, streams, adapters, network transport (made only when a provider goes live) and clock;
    /// `beforeCityChange` is a test aid, awaited by `cities remove` and `cities move` after the list is read and before it is changed,
    /// where another process's change can fall; `taskExecutor` runs the engine's tasks (nil: the runtime's pool); `prompter` is where
    /// `setup` asks its questions.
    public init(environment: [String: String], output: any OutputSink = StandardStream.output,
                errors: any OutputSink = StandardStream.error, registry: ProviderRegistry = .standard(),
                liveTransport: @escaping @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/\(IsobarCommandLine.version)") },
                time: any TimeSource = SystemTime(), beforeCityChange: @escaping @Sendable () async -> Void = {},
                taskExecutor: (any TaskExecutor)? = nil, prompter: Prompter = .standardInput(), heldWakeups: HeldWakeups? = nil) {
        context = CommandContext(
            environment: environment, output: output,
            errors: TextCharset(environment: environment) == .ascii ? ASCIISink(base: errors, conversion: .fold) : errors,
            registry: registry, makeLiveTransport: liveTransport, time: Self.shiftedClock(time, environment: environment) ?? time,
            beforeCityChange: beforeCityChange, taskExecutor: taskExecutor, prompter: prompter, heldWakeups: heldWakeups)
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
        if let text = context.environment[Self.timeShiftVariable], Self.shiftedClock(SystemTime(), environment: context.environment) == nil {
            return fail("\(Self.timeShiftVariable) must be a number of seconds within ±100 years, not '\(text.prefix(40))'", .usage)
        }
        do {
            let code = try await dispatch(arguments)
            // Whatever the command did, a reader that went away is said by the status (see `ExitCode.outputClosed`).
            return (context.output.isClosed ? ExitCode.outputClosed : code).rawValue
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
        context.errors.write("isobar: \(message)\n")
        return code.rawValue
    }

    /// True when `text` names a place the offline directory knows (or is a coordinate), without touching the network.
    private func isPlace(_ text: String) -> Bool {
        guard let resolver = try? context.placeResolver() else { return false }
        return (try? resolver.resolveOffline(text)) != nil
    }

    /// Runs the command `command` with `invocation`, its output put in ASCII for what it writes when the locale asks.
    /// The cache files it opened are finished as it ends, whatever it returned or threw.
    private func run(_ command: any IsobarCommand.Type, _ invocation: Invocation) async throws -> ExitCode {
        let context = context.writing(command.writes(invocation)).forOneCommand()
        let code: ExitCode
        do {
            code = try await command.init(context: context, invocation: invocation).run()
        } catch {
            await context.openedCaches.finish()
            throw error
        }
        await context.openedCaches.finish()
        return code
    }

    private func dispatch(_ arguments: [String]) async throws -> ExitCode {
        guard let first = arguments.first else { return try await run(HomeCommand.self, Invocation(command: Commands.home)) }
        switch first {
        case "--help", "-h", "help":
            let defaults = Invocation(command: Commands.home)
            let output = context.writing(.people).output
            if arguments.count > 1, let command = CommandTable.named(arguments[1]) {
                output.write(HelpText.command(command.spec, configuration: try? context.loadConfiguration(defaults)))
            } else {
                let environment = context.environment
                let missingData = DataDirectory.hasDemo(environment: environment) ? nil : DataDirectory.notFoundMessage(environment: environment)
                output.write(HelpText.overview(registry: context.registry, configuration: try? context.loadConfiguration(defaults),
                                               missingData: missingData))
            }
            return .success
        case "--version", "-V":
            context.writing(.people).output.write("isobar \(Self.version)\n")
            return .success
        default:
            break
        }
        guard let command = CommandTable.named(first) else {
            // `isobar --demo` and the like: the home view with options.
            if first.hasPrefix("-") { return try await run(HomeCommand.self, HomeCommand.invocation(arguments)) }
            let names = CommandTable.specs.map { $0.name }
            if let suggestion = Spelling.closest(to: first, in: names), !isPlace(first) {
                throw UsageError("unknown command '\(first)'; did you mean '\(suggestion)'? (commands are \(names.joined(separator: ", ")))")
            }
            // `isobar PLACE [options]`: the home view of that place.
            return try await run(PlaceCommand.self, PlaceCommand.invocation(arguments))
        }
        let invocation = try command.invocation(Array(arguments.dropFirst()))
        if invocation.options.help {
            // `isobar cities add --help`: the action's own help, from its spec; otherwise the command's.
            var action: CommandSpec?
            if let actions = command as? any CommandWithActions.Type, let word = invocation.positionals.first { action = actions.actionHelp(word) }
            context.writing(.people).output.write(HelpText.command(action ?? command.spec, configuration: try? context.loadConfiguration(invocation)))
            return .success
        }
        return try await run(command, invocation)
    }
}
