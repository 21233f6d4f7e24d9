import FoundationEssentials
import IsobarCLI
#if canImport(Glibc)
import Glibc
#endif

let code = await IsobarCommandLine(environment: ProcessInfo.processInfo.environment).run(Array(CommandLine.arguments.dropFirst()))
exit(code)
