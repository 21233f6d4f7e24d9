import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Set by the SIGINT handler; read by the batch's ticker (a signal handler may only do this much).
private let interruptRaised = Atomic<Bool>(false)

/// Turns SIGINT into a flag a batch polls, and makes a closed output an EPIPE error instead of a SIGPIPE death,
/// for as long as it is installed.
final class InterruptSignal: Sendable {
    private let previous: Mutex<(interrupt: sigaction, pipe: sigaction)?>

    /// Installs the handlers (the flag starts lowered).
    init() {
        interruptRaised.store(false, ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interruptRaised.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        var oldInterrupt = sigaction()
        sigaction(SIGINT, &action, &oldInterrupt)
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        var oldPipe = sigaction()
        sigaction(SIGPIPE, &ignore, &oldPipe)
        previous = Mutex((oldInterrupt, oldPipe))
    }

    /// True once SIGINT arrived.
    var wasRaised: Bool { interruptRaised.load(ordering: .relaxed) }

    /// Puts the previous handlers back.
    func restore() {
        guard var old = previous.withLock({ previous in
            defer { previous = nil }
            return previous
        }) else { return }
        sigaction(SIGINT, &old.interrupt, nil)
        sigaction(SIGPIPE, &old.pipe, nil)
    }
}
