import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The process groups of the programs running now, so that a command that exits, or is stopped by a signal, leaves none behind.
///
/// A fixed table of atomics: `stopAll` takes no lock and allocates nothing, so a signal handler may call it. A group is in
/// the table from just after its program is spawned until just before its leader is reaped (so that its id cannot have been
/// reused by then).
public enum ProgramGroups {
    /// Adds a group; false when the table is full.
    @discardableResult
    static func add(_ group: pid_t) -> Bool {
        guard group > 0 else { return false }
        for index in table.indices where table[index].compareExchange(expected: 0, desired: group, ordering: .sequentiallyConsistent).exchanged {
            return true
        }
        return false
    }

    /// Removes a group (nothing happens when it is not there).
    static func remove(_ group: pid_t) {
        guard group > 0 else { return }
        for index in table.indices where table[index].compareExchange(expected: group, desired: 0, ordering: .sequentiallyConsistent).exchanged {
            return
        }
    }

    /// Sends SIGKILL to every group in the table. Async-signal-safe.
    public static func stopAll() {
        for index in table.indices {
            let group = table[index].load(ordering: .sequentiallyConsistent)
            if group > 0 { kill(-group, SIGKILL) }
        }
    }

    /// Makes the process stop every program's group when it exits (`exit`, the end of `main`) and when SIGINT, SIGTERM or
    /// SIGHUP ends it (the signal then ends the process as it would have: its default action runs after the groups are
    /// stopped). A signal the process was started with ignored (`nohup`) stays ignored; call once, from `main`.
    public static func stopAllOnExit() {
        _ = table[0].load(ordering: .relaxed)  // The table exists before a handler can read it.
        atexit { ProgramGroups.stopAll() }
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            var current = sigaction()
            guard sigaction(signalNumber, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signalNumber in
                ProgramGroups.stopAll()
                // SA_RESETHAND put the default action back: raised again, the signal ends the process once this returns.
                raise(signalNumber)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(bitPattern: SA_RESETHAND)
            sigaction(signalNumber, &action, nil)
        }
    }
}

/// One slot per group, 0 when free: the most groups tracked at once (a program started beyond them is still stopped by its
/// own run, only not at exit).
private let table = InlineArray<1024, Atomic<pid_t>> { _ in Atomic<pid_t>(0) }
