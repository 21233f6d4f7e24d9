import FixtureReplay
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What one finished child process took.
struct ChildUsage {
    /// Wall seconds from start to exit.
    var seconds: Double
    /// The exit status; 128 + the signal for a child a signal ended, as a shell reports it.
    var status: Int32
    /// CPU seconds in user mode.
    var userSeconds: Double
    /// CPU seconds in the kernel.
    var systemSeconds: Double
    /// Peak resident set, KiB.
    var maxRSSKiB: Int
    /// Page faults served without reading the disk (each page of the program, its data and its heap first touched).
    var minorFaults: Int = 0

    /// User and system CPU seconds.
    var cpuSeconds: Double { userSeconds + systemSeconds }
}

/// Runs a program to completion with its standard streams on the named files; `watch`, when given, is called about every
/// millisecond with the pid and the seconds since the start (to signal it); without it the wait blocks, so short runs are timed
/// exactly. The `posix_spawn` error code when it cannot start.
func runRedirected(_ path: String, _ arguments: [String], environment: [String], stdin: String = "/dev/null",
                   stdout: String = "/dev/null", stderr: String = "/dev/null",
                   watch: ((pid_t, Double) -> Void)? = nil) -> Result<ChildUsage, SpawnError> {
    var pid: pid_t = 0
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let started = monotonicSeconds()
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
    guard spawned == 0 else { return .failure(SpawnError(path: path, code: spawned)) }
    var status: Int32 = 0
    var usage = rusage()
    if let watch {
        while wait4(pid, &status, WNOHANG, &usage) == 0 {
            watch(pid, monotonicSeconds() - started)
            usleep(1000)
        }
    } else {
        wait4(pid, &status, 0, &usage)
    }
    let seconds = monotonicSeconds() - started
    let signal = status & 0x7f
    return .success(ChildUsage(
        seconds: seconds, status: signal != 0 ? 128 + signal : (status >> 8) & 0xff,
        userSeconds: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
        systemSeconds: Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6, maxRSSKiB: usage.ru_maxrss,
        minorFaults: usage.ru_minflt))
}

/// Runs a program to completion, its output discarded; returns wall seconds, CPU seconds, peak RSS in KiB and the exit status.
func spawnAndMeasure(_ path: String, _ arguments: [String], environment: [String]) -> (seconds: Double, cpuSeconds: Double, maxRSSKiB: Int, status: Int32) {
    switch runRedirected(path, arguments, environment: environment) {
    case .success(let child): (child.seconds, child.cpuSeconds, child.maxRSSKiB, child.status)
    case .failure: (0, 0, 0, -1)
    }
}

/// A program that could not be started.
struct SpawnError: Error, CustomStringConvertible {
    /// The program.
    let path: String
    /// `posix_spawn`'s error code.
    let code: Int32
    /// For the report.
    var description: String { "cannot start \(path): error \(code)" }
}

/// `ISOBAR_TIME_SHIFT=…`: moves a child's clock to the bundled recordings' moment (2026-11-28 09:00 UTC, never before), so that
/// the bodies the benchmarks serve live are judged as at that moment: their current conditions, observed minutes before, are
/// fresh, cached and merged (today they are days old, and would be left out of the consensus and never cached).
func recordingTimeShift() -> String {
    let recordedAt = Date(timeIntervalSince1970: 1_795_856_400)
    return "ISOBAR_TIME_SHIFT=\(Int(recordedAt.timeIntervalSinceNow.rounded(.up)))"
}

/// Seconds of the monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The `isobar` executable built beside this benchmark; nil, after saying so, when there is none.
func siblingIsobar(for benchmark: String) -> String? {
    let executable = CommandLine.arguments[0]
    let directory = String(executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)])
    let isobar = (directory.isEmpty ? "." : directory) + "/isobar"
    guard FileManager.default.isExecutableFile(atPath: isobar) else {
        print("\(benchmark): build the isobar executable in the same configuration first (swift build -c release)")
        return nil
    }
    return isobar
}

/// The body of the bundled Minsk recording of `library` for the URL path `path`; empty when there is none.
func minskBody(_ library: CassetteLibrary, _ path: String) -> [UInt8] {
    library.interactions.first { $0.file.hasSuffix("minsk.json") && $0.url.path == path }?.response.body ?? []
}
