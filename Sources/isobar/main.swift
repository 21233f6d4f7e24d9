import Exec
import FoundationEssentials
import IsobarCLI
import IsobarCore
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
let commandLine = short
    ? IsobarCommandLine(environment: ProcessInfo.processInfo.environment, time: executor.time, taskExecutor: executor)
    : IsobarCommandLine(environment: ProcessInfo.processInfo.environment)
exit(executor.run(preferred: short) { await commandLine.run(arguments) })
