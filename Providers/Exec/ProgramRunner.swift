import FoundationEssentials
import IsobarCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// How a program run ended.
enum ProgramEnd: Sendable, Equatable {
    /// It exited by itself with this status.
    case exited(Int32)
    /// A signal ended it (by itself, or ours after the deadline or the output cap).
    case signalled(Int32)
}

/// What one run of a program gave back.
struct ProgramOutcome: Sendable {
    /// Everything it wrote on stdout, up to the cap.
    var stdout: [UInt8]
    /// The end of what it wrote on stderr (at most `ProgramRunner.stderrKeptBytes`).
    var stderr: [UInt8]
    /// How it ended.
    var end: ProgramEnd
    /// True when the deadline came first and the program was stopped.
    var timedOut: Bool
    /// True when it wrote more than the cap on stdout and was stopped.
    var overflowed: Bool
    /// True when the caller's task was cancelled and the program was stopped.
    var cancelled: Bool
}

/// Runs one program with a message on stdin and collects stdout and stderr, never blocking a cooperative thread.
///
/// With `ProgramGroups`, this is the only file of the exec adapter that touches processes, file descriptors and signals. The
/// program starts with no signal blocked and every signal's default action, in its own process group, so that SIGTERM at the
/// deadline or on cancellation (and SIGKILL one grace period later) reaches its children too; descriptors other than 0, 1
/// and 2 are closed in the child; stdout is capped. A run returns only after SIGKILL went to the whole group and the program
/// was reaped, and the group is in `ProgramGroups` while it runs, so that an exiting command stops it.
enum ProgramRunner {
    /// Bytes of stderr kept (the end of it).
    static let stderrKeptBytes = 16 << 10

    /// Runs `executable` (an absolute path) with `arguments` and `environment` (`NAME=value`), writing `input` to its stdin;
    /// stops it at `deadline` (system clock) or when stdout passes `stdoutCap` bytes. Nil when it could not be started.
    static func run(executable: String, arguments: [String], environment: [String], input: [UInt8], deadline: Date,
                    stdoutCap: Int, killGraceSeconds: Double = 1) async -> Result<ProgramOutcome, SpawnFailure> {
        let cancelled = CancelFlag()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A thread of its own for the whole run: it blocks in `poll` until the program ends or its deadline, and must
                // not hold a thread of the pool the process's tasks share (see `PlainThread`).
                let started = PlainThread.detach {
                    continuation.resume(returning: runBlocking(executable: executable, arguments: arguments, environment: environment,
                                                               input: input, deadline: deadline, stdoutCap: stdoutCap,
                                                               killGraceSeconds: killGraceSeconds, cancelled: cancelled))
                }
                if case .failure(let error) = started { continuation.resume(returning: .failure(SpawnFailure(errno: error.code))) }
            }
        } onCancel: {
            cancelled.set()
        }
    }

    private static func runBlocking(executable: String, arguments: [String], environment: [String], input: [UInt8], deadline: Date,
                                    stdoutCap: Int, killGraceSeconds: Double, cancelled: CancelFlag) -> Result<ProgramOutcome, SpawnFailure> {
        // A program that exits without reading its stdin must not take this process down with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        // Pipes are made and the child spawned under one lock, so that no other program started here at the same moment
        // inherits these pipes before they are marked close-on-exec.
        var spawned = spawnLock.withLock { _ in spawn(executable: executable, arguments: arguments, environment: environment) }
        // A program file just written may still be open for writing in a child another thread is starting: try again briefly.
        for _ in 0..<20 {
            guard case .failure(let failure) = spawned, failure.errno == ETXTBSY else { break }
            usleep(10_000)
            spawned = spawnLock.withLock { _ in spawn(executable: executable, arguments: arguments, environment: environment) }
        }
        guard case .success(let (pid, inPipe, outPipe, errPipe)) = spawned else {
            if case .failure(let failure) = spawned { return .failure(failure) }
            return .failure(SpawnFailure(errno: EINVAL))
        }
        for descriptor in [inPipe[1], outPipe[0], errPipe[0]] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        var session = Session(pid: pid, stdin: input.isEmpty ? -1 : inPipe[1], stdout: outPipe[0], stderr: errPipe[0], input: input,
                              stdoutCap: stdoutCap)
        if input.isEmpty { close(inPipe[1]) }
        let outcome = session.drive(deadline: deadline, killGraceSeconds: killGraceSeconds, cancelled: cancelled)
        return .success(outcome)
    }

    private static func spawn(executable: String, arguments: [String],
                              environment: [String]) -> Result<(pid_t, [Int32], [Int32], [Int32]), SpawnFailure> {
        var inPipe: [Int32] = [-1, -1], outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        for index in 0..<3 {
            var pair: [Int32] = [-1, -1]
            guard pipe(&pair) == 0 else {
                let saved = errno
                closeAll(inPipe + outPipe + errPipe)
                return .failure(SpawnFailure(errno: saved))
            }
            for descriptor in pair { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            switch index {
            case 0: inPipe = pair
            case 1: outPipe = pair
            default: errPipe = pair
            }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        // Descriptors this process opened without close-on-exec (files, sockets) must not live on in the program.
        if let closeFrom = closeFromAction() { _ = closeFrom(&actions, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // This thread's mask (a Dispatch worker blocks SIGTERM, SIGINT, SIGHUP and more) and the signals this process
        // ignores (SIGPIPE) would be inherited: the program could then not be stopped by SIGTERM.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        sigdelset(&everySignal, SIGKILL)
        sigdelset(&everySignal, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(inPipe[0])
        close(outPipe[1])
        close(errPipe[1])
        guard result == 0 else {
            closeAll([inPipe[1], outPipe[0], errPipe[0]])
            return .failure(SpawnFailure(errno: result))
        }
        ProgramGroups.add(pid)
        return .success((pid, inPipe, outPipe, errPipe))
    }

    private static func closeAll(_ descriptors: [Int32]) {
        for descriptor in descriptors where descriptor >= 0 { close(descriptor) }
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), found at run time: its declaration needs `_GNU_SOURCE`.
private func closeFromAction() -> (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32)? {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: CloseFrom.self)
}

/// Held while pipes are made and a child is spawned.
private let spawnLock = Mutex<Void>(())

/// Why a program could not be started.
struct SpawnFailure: Error, Sendable {
    /// The system's error number.
    let errno: Int32
    /// The system's explanation.
    var text: String { String(cString: strerror(errno)) }
}

/// Set when the caller's task is cancelled.
private final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .relaxed) }
    var isSet: Bool { flag.load(ordering: .relaxed) }
}

/// The pipes of one running program and what came through them.
private struct Session {
    let pid: pid_t
    var stdin: Int32
    var stdout: Int32
    var stderr: Int32
    let input: [UInt8]
    let stdoutCap: Int
    var written = 0
    var out: [UInt8] = []
    var err: [UInt8] = []
    var overflowed = false

    init(pid: pid_t, stdin: Int32, stdout: Int32, stderr: Int32, input: [UInt8], stdoutCap: Int) {
        self.pid = pid
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.input = input
        self.stdoutCap = stdoutCap
    }

    /// Feeds stdin, drains stdout and stderr until both close, then reaps; stops the group at the deadline, on overflow or cancellation.
    mutating func drive(deadline: Date, killGraceSeconds: Double, cancelled flag: CancelFlag) -> ProgramOutcome {
        var timedOut = false
        var wasCancelled = false
        var stopping: Date?
        while stdout >= 0 || stderr >= 0 {
            let now = Date()
            if stopping == nil {
                if overflowed {
                    stop(SIGKILL)
                    stopping = now
                } else if flag.isSet {
                    wasCancelled = true
                    stop(SIGTERM)
                    stopping = now
                } else if now >= deadline {
                    timedOut = true
                    stop(SIGTERM)
                    stopping = now
                }
            } else if let since = stopping, now.timeIntervalSince(since) >= killGraceSeconds {
                stop(SIGKILL)
                // Descendants that escaped the group may hold the pipes open: stop listening.
                if now.timeIntervalSince(since) >= killGraceSeconds + 1 { break }
            }
            pollOnce(timeoutMS: 20)
        }
        closeRemaining()
        let end = reap(deadline: deadline, stoppedAt: stopping, killGraceSeconds: killGraceSeconds, timedOut: &timedOut)
        return ProgramOutcome(stdout: out, stderr: err, end: end, timedOut: timedOut, overflowed: overflowed, cancelled: wasCancelled)
    }

    private mutating func pollOnce(timeoutMS: Int32) {
        var fds: [pollfd] = []
        if stdin >= 0 { fds.append(pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0)) }
        if stdout >= 0 { fds.append(pollfd(fd: stdout, events: Int16(POLLIN), revents: 0)) }
        if stderr >= 0 { fds.append(pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)) }
        guard poll(&fds, nfds_t(fds.count), timeoutMS) > 0 else { return }
        for entry in fds where entry.revents != 0 {
            if entry.fd == stdin { writeInput() } else if entry.fd == stdout { readOutput() } else { readErrors() }
        }
    }

    private mutating func writeInput() {
        let count = input[written...].withUnsafeBytes { write(stdin, $0.baseAddress, $0.count) }
        if count > 0 { written += count }
        if count < 0 && errno == EAGAIN { return }
        if count < 0 || written >= input.count {
            close(stdin)
            stdin = -1
        }
    }

    private mutating func readOutput() {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(stdout, $0.baseAddress, $0.count) }
            if count > 0 {
                guard out.count + count <= stdoutCap else {
                    overflowed = true
                    close(stdout)
                    stdout = -1
                    return
                }
                out += buffer[0..<count]
                continue
            }
            if count < 0 && errno == EAGAIN { return }
            if count < 0 && errno == EINTR { continue }
            close(stdout)
            stdout = -1
            return
        }
    }

    private mutating func readErrors() {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(stderr, $0.baseAddress, $0.count) }
            if count > 0 {
                err += buffer[0..<count]
                if err.count > ProgramRunner.stderrKeptBytes { err.removeFirst(err.count - ProgramRunner.stderrKeptBytes) }
                continue
            }
            if count < 0 && errno == EAGAIN { return }
            if count < 0 && errno == EINTR { continue }
            close(stderr)
            stderr = -1
            return
        }
    }

    private mutating func closeRemaining() {
        for descriptor in [stdin, stdout, stderr] where descriptor >= 0 { close(descriptor) }
        stdin = -1
        stdout = -1
        stderr = -1
    }

    private func stop(_ signal: Int32) {
        // The whole group: a shell's children die with it.
        kill(-pid, signal)
    }

    /// Waits for the program to end (it closed its output but may still be running), stopping it at the deadline; then
    /// kills what is left of its group and reaps it, whatever happened.
    private func reap(deadline: Date, stoppedAt: Date?, killGraceSeconds: Double, timedOut: inout Bool) -> ProgramEnd {
        // Already being stopped (deadline, overflow, cancellation): only the escalation to SIGKILL remains.
        var stopping = stoppedAt
        while true {
            // Seen ended but not yet reaped, so that its group id cannot be reused before the group is stopped below.
            var info = siginfo_t()
            let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
            if result == 0 && info._sifields._sigchld.si_pid == pid { break }
            if result < 0 && errno != EINTR {
                kill(-pid, SIGKILL)
                ProgramGroups.remove(pid)
                return .exited(-1)
            }
            let now = Date()
            if stopping == nil, now >= deadline {
                timedOut = true
                stop(SIGTERM)
                stopping = now
            } else if let since = stopping, now.timeIntervalSince(since) >= killGraceSeconds {
                stop(SIGKILL)
            }
            usleep(2_000)
        }
        // Leftovers of the group (a background child) are not allowed to outlive the call. The group leaves the table before
        // its leader is reaped: after that its id may be another's.
        kill(-pid, SIGKILL)
        ProgramGroups.remove(pid)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signalNumber = status & 0x7f
        return signalNumber != 0 ? .signalled(signalNumber) : .exited((status >> 8) & 0xff)
    }
}
