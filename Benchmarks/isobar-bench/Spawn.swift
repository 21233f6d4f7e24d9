#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion; returns wall seconds, CPU seconds (user + system), peak RSS in KiB and the exit status.
func spawnAndMeasure(_ path: String, _ arguments: [String], environment: [String]) -> (seconds: Double, cpuSeconds: Double, maxRSSKiB: Int, status: Int32) {
    var pid: pid_t = 0
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var start = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else { return (0, 0, 0, -1) }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &end)
    let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    // A child ended by a signal reports 128 + the signal, as a shell would.
    let signalled = status & 0x7f
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    return (seconds, cpu, usage.ru_maxrss, signalled != 0 ? 128 + signalled : (status >> 8) & 0xff)
}
