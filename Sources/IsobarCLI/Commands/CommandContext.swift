import FoundationEssentials
import IsobarCore
import IsobarRender

/// What every command runs with: the environment, the output streams, the providers' registry, the network, the clock,
/// where tasks run, where questions are asked, and the hook tests set; the shared services (configuration, places,
/// engine, stores) are its methods, in the files beside this one.
struct CommandContext: Sendable {
    /// The process environment (or the test's).
    let environment: [String: String]
    /// Standard output, put in ASCII for the command's kind of text when the locale is not UTF-8.
    private(set) var output: any OutputSink
    /// Standard error, put in ASCII when the locale is not UTF-8.
    let errors: any OutputSink
    /// The provider types the configuration can name.
    let registry: ProviderRegistry
    /// Makes the network transport, once a provider goes live.
    let makeLiveTransport: @Sendable () -> any Transport
    /// Isobar's clock (moved by `ISOBAR_TIME_SHIFT` when that is set).
    let time: any TimeSource
    /// Awaited by `cities remove` and `cities move` after the list is read and before it is changed (a test aid).
    let beforeCityChange: @Sendable () async -> Void
    /// Where the engine's tasks run (the program's main thread, see `CallingThreadExecutor`); nil: the runtime's pool.
    let taskExecutor: (any TaskExecutor)?
    /// Where `setup` asks its questions.
    let prompter: Prompter
    /// Shared with the live transport's I/O thread, which holds them while it runs a burst of jobs: the cache writes those
    /// jobs queue are then committed together (see `HeldWakeups`); nil to commit each as it comes.
    let heldWakeups: HeldWakeups?
    /// The cache files the running command opened, finished as it ends.
    private(set) var openedCaches = OpenedCaches()

    /// This context for one command, with a list of its own of the cache files it opens.
    func forOneCommand() -> CommandContext {
        var copy = self
        copy.openedCaches = OpenedCaches()
        return copy
    }

    /// This context with standard output put in ASCII for `text` when the locale is not UTF-8 (see `TextCharset`).
    func writing(_ text: OutputText) -> CommandContext {
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

    /// Writes `report` in `format`: its text for people, fitted to this output's width, or its JSON lines.
    func write(_ report: some CommandReport, as format: OutputFormat) {
        RendererFactory.write(report, as: format, width: width, to: output)
    }

    /// The width this command's output must fit, or nil for no limit.
    var width: Int? { TerminalWidth.resolve(environment: environment, output: output) }
}
