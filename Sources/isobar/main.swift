import Exec
import FoundationEssentials
import IsobarCLI
import IsobarCore
#if canImport(Glibc)
import Glibc
#endif

// No plug-in program outlives the command: not when it ends, nor when Ctrl-C, SIGTERM or SIGHUP stops it.
ProgramGroups.stopAllOnExit()
// A reader that goes away (`| head -1`) makes writes fail with EPIPE instead of ending the process mid-run: the command
// finishes its work (answers fetched are committed to the cache) and exits with its own status for a closed output.
signal(SIGPIPE, SIG_IGN)
// The command's async work runs on this thread: no pool of threads is started for a short command (see CallingThreadExecutor).
let executor = CallingThreadExecutor()
let commandLine = IsobarCommandLine(environment: ProcessInfo.processInfo.environment, taskExecutor: executor)
let arguments = Array(CommandLine.arguments.dropFirst())
exit(executor.run { await commandLine.run(arguments) })
