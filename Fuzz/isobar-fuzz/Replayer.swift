import FoundationEssentials
import IsobarFuzzTargets

/// `isobar-fuzz TARGET FILE...`: runs saved inputs through a target and prints what each did.
enum Replayer {
    /// Exit status: 0 when every input was accepted or rejected, 1 when one broke a promise, 64 for bad usage.
    static func run(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first else { return IsobarFuzz.usage("usage: isobar-fuzz TARGET FILE... | --list") }
        guard let target = FuzzTargets.named(name) else {
            return IsobarFuzz.usage("unknown target '\(name)'; targets: \(FuzzTargets.all.map(\.name).joined(separator: ", "))")
        }
        guard arguments.count > 1 else { return IsobarFuzz.usage("no input files for '\(name)'") }
        var status: Int32 = 0
        for file in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: file) else { return IsobarFuzz.usage("cannot read \(file)") }
            let outcome = target.run(Array(data))
            switch outcome {
            case .accepted(let text), .rejected(let text), .violated(let text):
                print("\(file): \(outcome.kind): \(text)")
            }
            if case .violated = outcome { status = 1 }
        }
        return status
    }
}
