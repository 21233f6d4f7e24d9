import Exec
import FoundationEssentials
import IsobarCLI
#if canImport(Glibc)
import Glibc
#endif

// No plug-in program outlives the command: not when it ends, nor when Ctrl-C, SIGTERM or SIGHUP stops it.
ProgramGroups.stopAllOnExit()
let code = await IsobarCommandLine(environment: ProcessInfo.processInfo.environment).run(Array(CommandLine.arguments.dropFirst()))
exit(code)
