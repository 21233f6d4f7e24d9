import IsobarCore
import Synchronization

/// "asking 3 providers…" on a terminal's stderr while a command waits more than a moment; erased before anything else is shown.
public final class WaitingNotice: Sendable {
    private struct State {
        var shown = false
        var stopped = false
        var task: Task<Void, Never>?
    }

    private let sink: any OutputSink
    private let state = Mutex(State())

    /// Seconds of waiting before the notice appears.
    public static let delaySeconds = 0.3

    /// A notice on `sink`; it never shows unless `sink` is a terminal.
    public init(sink: any OutputSink) {
        self.sink = sink
    }

    /// Shows `text` after the delay on `time`, unless stopped first.
    public func start(_ text: String, time: any TimeSource) {
        guard sink.isTerminal else { return }
        let task = Task { [self] in
            guard (try? await time.sleep(seconds: Self.delaySeconds)) != nil else { return }
            state.withLock { state in
                guard !state.stopped else { return }
                state.shown = true
                sink.write("\(text)\r")
            }
        }
        state.withLock { $0.task = task }
    }

    /// Erases the notice if it is showing; it will not show after this.
    public func stop() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.stopped = true
            if state.shown {
                state.shown = false
                sink.write("\r\u{1B}[K")
            }
            return state.task
        }
        task?.cancel()
    }
}
