#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import IsobarFuzzTargets

/// Runs Isobar's fuzz targets: under libFuzzer when built with `-D ISOBAR_FUZZ -sanitize=fuzzer` (see `scripts/fuzz.sh`),
/// otherwise as a replayer of saved inputs.
@main
enum IsobarFuzz {
    static func main() {
        if CommandLine.arguments.dropFirst().first == "--list" {
            for target in FuzzTargets.all { print("\(target.name)\t\(target.summary)") }
            exit(0)
        }
        #if ISOBAR_FUZZ
        // No array of the arguments is made here: libFuzzer never returns, and its leak check would count one that is
        // no longer referenced.
        FuzzDriver.run()
        #else
        exit(Replayer.run(Array(CommandLine.arguments.dropFirst())))
        #endif
    }

    /// Prints a one-line error to standard error and returns the usage exit code, 64.
    static func usage(_ message: String) -> Int32 {
        let line = Array("isobar-fuzz: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        return 64
    }
}
