import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A program the tests start, with the part of Foundation's `Process` interface they use, started by `posix_spawn`.
///
/// Foundation's `Process.run()` on Linux lists `/proc/self/fd` to close the descriptors a child should not inherit, and
/// copies each directory entry whole, reading past the end of the listing's buffer: in a process with many files open (a
/// test run) it crashes now and then. Here the child closes every descriptor above the standard three with one spawn action
/// (`closefrom`), and nothing is listed.
public final class ChildProcess: @unchecked Sendable {
    /// Why it ended.
    public enum TerminationReason: Sendable, Equatable {
        /// It exited with a status.
        case exit
        /// A signal ended it.
        case uncaughtSignal
    }

    // Safety of `@unchecked Sendable`: the settings are written before `run()`, by one test; the outcome is behind a mutex.
    /// The program.
    public var executableURL: URL?
    /// Its arguments, without the program's name.
    public var arguments: [String] = []
    /// Its whole environment; nil for this process's.
    public var environment: [String: String]?
    /// Its working directory; nil for this process's.
    public var currentDirectoryURL: URL?
    /// A `Pipe` or a `FileHandle` for its standard input; nil to share this process's.
    public var standardInput: Any?
    /// A `Pipe` or a `FileHandle` for its standard output; nil to share this process's.
    public var standardOutput: Any?
    /// A `Pipe` or a `FileHandle` for its standard error; nil to share this process's.
    public var standardError: Any?

    private let outcome = Mutex<(pid: pid_t, status: Int32?, signalled: Bool)>((0, nil, false))

    /// A program not yet started.
    public init() {}

    /// Its process id once started (0 before).
    public var processIdentifier: Int32 { outcome.withLock { $0.pid } }

    /// True from `run()` until it has ended and been waited for.
    public var isRunning: Bool {
        let (pid, status, _) = outcome.withLock { $0 }
        guard pid > 0, status == nil else { return false }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
        record(raw)
        return false
    }

    /// Its exit status, or the signal that ended it; 0 before it ended.
    public var terminationStatus: Int32 { outcome.withLock { $0.status ?? 0 } }

    /// Whether it exited or a signal ended it.
    public var terminationReason: TerminationReason { outcome.withLock { $0.signalled ? .uncaughtSignal : .exit } }

    /// Starts it; throws an `NSError` of the POSIX domain when it cannot be started (`ETXTBSY` for an executable still open
    /// for writing).
    public func run() throws {
        guard let path = executableURL?.path else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(ENOENT)) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let streams: [(Any?, Int32, Bool)] = [(standardInput, 0, true), (standardOutput, 1, false), (standardError, 2, false)]
        for (stream, target, reading) in streams {
            if let handle = stream as? FileHandle, handle === FileHandle.nullDevice {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", reading ? O_RDONLY : O_WRONLY, 0)
            } else if let descriptor = Self.descriptor(stream, reading: reading) {
                posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }
        guard let closeFrom = Self.addCloseFrom, let changeDirectory = Self.addChangeDirectory else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSYS)) }
        _ = closeFrom(&actions, 3)
        if let directory = currentDirectoryURL?.path { _ = changeDirectory(&actions, directory) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with no signal blocked and the default actions, whatever this thread had.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let variables = environment.map { $0.map { "\($0.key)=\($0.value)" } } ?? ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let envp = variables.map { strdup($0) }
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, path, &actions, &attributes, argv + [nil], envp + [nil])
        // An NSError, as Foundation's `Process` throws, so that callers matching `NSError` (on Linux a cast, not a bridge) see it.
        guard started == 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(started)) }
        outcome.withLock { $0.pid = pid }
        // This side's copies of the ends the child writes to (or reads from) are closed, so a read sees its end.
        for (stream, _, reading) in streams {
            if let pipe = stream as? Pipe { try? (reading ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close() }
        }
    }

    /// Waits until it has ended.
    public func waitUntilExit() {
        let (pid, status, _) = outcome.withLock { $0 }
        guard pid > 0, status == nil else { return }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        record(raw)
    }

    /// Sends SIGINT.
    public func interrupt() {
        let pid = processIdentifier
        if pid > 0 { kill(pid, SIGINT) }
    }

    /// Keeps a wait status: the exit status, or the signal's number.
    private func record(_ raw: Int32) {
        let signal = raw & 0x7f
        outcome.withLock { outcome in
            outcome.signalled = signal != 0
            outcome.status = signal != 0 ? signal : (raw >> 8) & 0xff
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which its headers declare only for GNU sources.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self) }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), likewise.
    private static let addChangeDirectory: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np").map { unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self) }

    /// The descriptor the child's stream is set to: the write end of a pipe it writes to, the read end of one it reads.
    private static func descriptor(_ stream: Any?, reading: Bool) -> Int32? {
        if let pipe = stream as? Pipe { return (reading ? pipe.fileHandleForReading : pipe.fileHandleForWriting).fileDescriptor }
        if let handle = stream as? FileHandle { return handle.fileDescriptor }
        return nil
    }
}
