import Exec
import FoundationEssentials
import IsobarCLI
import IsobarCore
#if canImport(Glibc)
import Glibc
#endif

// No plug-in program outlives the command: not when it ends, nor when Ctrl-C, SIGTERM or SIGHUP stops it.
ProgramGroups.stopAllOnExit()
// The command's async work runs on this thread: no pool of threads is started for a short command (see CallingThreadExecutor).
let executor = CallingThreadExecutor()
let commandLine = IsobarCommandLine(environment: ProcessInfo.processInfo.environment, taskExecutor: executor)
let arguments = Array(CommandLine.arguments.dropFirst())
exit(executor.run { await commandLine.run(arguments) })
