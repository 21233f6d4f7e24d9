#if ISOBAR_FUZZ
import CFuzzerDriver
#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import IsobarFuzzTargets

/// The libFuzzer side: the target named by `ISOBAR_FUZZ_TARGET`, each input run once; a broken promise traps, so libFuzzer keeps it.
enum FuzzDriver {
    /// The target every input goes to, chosen once before fuzzing starts.
    nonisolated(unsafe) static var target: FuzzTarget?

    /// Hands control to libFuzzer with the rest of the command line as its options; never returns.
    static func run() -> Never {
        let name = ProcessInfo.processInfo.environment["ISOBAR_FUZZ_TARGET"] ?? ""
        guard let chosen = FuzzTargets.named(name) else {
            exit(IsobarFuzz.usage("set ISOBAR_FUZZ_TARGET to one of: \(FuzzTargets.all.map(\.name).joined(separator: ", "))"))
        }
        target = chosen
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
            if case .violated(let problem) = FuzzDriver.target!.run(bytes) { fatalError("broken promise: \(problem)") }
            return 0
        })
    }
}
#endif
