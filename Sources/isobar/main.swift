import Exec
import FoundationEssentials
import IsobarCLI
import IsobarCore
import IsobarHTTP
#if canImport(Glibc)
import Glibc
#endif

// Signals that stop a command reach it even when it was started with them blocked (a mask is inherited through exec): the
// main thread, which waits for the command's work, can then take them (`batch` stops taking places on Ctrl-C).
var stopping = sigset_t()
sigemptyset(&stopping)
for signalNumber in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stopping, signalNumber) }
pthread_sigmask(SIG_UNBLOCK, &stopping, nil)
// No plug-in program outlives the command: not when it ends, nor when Ctrl-C, SIGTERM or SIGHUP stops it.
ProgramGroups.stopAllOnExit()
// A reader that goes away (`| head -1`) makes writes fail with EPIPE instead of ending the process mid-run: the command
// finishes its work (answers fetched are committed to the cache) and exits with its own status for a closed output.
signal(SIGPIPE, SIG_IGN)
// A command's async work runs on this thread: no pool of threads is started for a short command (see CallingThreadExecutor).
// `batch` decodes and merges thousands of answers, and uses the pool's threads, one per core, as before.
let executor = CallingThreadExecutor()
let arguments = Array(CommandLine.arguments.dropFirst())
let short = arguments.first != "batch"
// The HTTP transport's I/O thread holds these while it runs a burst of the engine's jobs (`batch`), and the cache's queue
// wakes its thread through them: the writes of a burst are committed together.
let heldWakeups = HeldWakeups()
let live: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/\(IsobarCommandLine.version)", heldWakeups: heldWakeups) }
let environment = ProcessEnvironment.current()
let commandLine = short
    ? IsobarCommandLine(environment: environment, liveTransport: live, time: executor.time, taskExecutor: executor, heldWakeups: heldWakeups)
    : IsobarCommandLine(environment: environment, liveTransport: live, heldWakeups: heldWakeups)
exit(executor.run(preferred: short) { await commandLine.run(arguments) })
