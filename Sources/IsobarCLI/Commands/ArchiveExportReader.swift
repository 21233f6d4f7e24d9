import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarStore

/// Reads archive exports (the JSON lines `isobar archive export` writes, in metric units) back into archived steps and
/// observations: how the demo's recorded history is shipped and read, never written into the user's archive.
struct ArchiveExportReader {
    /// The archived forecast steps read.
    var steps: [ArchivedStep] = []
    /// The archived observations read.
    var observations: [ArchivedObservation] = []

    /// Reads every `*.jsonl` file in `directory`, in name order; a line of another type is skipped, a damaged one is an error.
    static func read(directory: String) throws(ConfigurationError) -> ArchiveExportReader {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".jsonl") }.sorted()
        } catch {
            throw ConfigurationError("cannot read the recorded history in \(directory)")
        }
        var reader = ArchiveExportReader()
        // The history shipped with Isobar is recorded, not hostile: its times are checked against the archive's window
        // but for the upper bound, which follows no clock here.
        let rules = ArchiveLineRules(latest: ArchiveLineRules.lastInstant)
        for name in names {
            guard let data = FileManager.default.contents(atPath: directory + "/" + name) else {
                throw ConfigurationError("cannot read \(directory)/\(name)")
            }
            // Split as bytes: splitting half a megabyte as characters takes most of the time.
            for (index, line) in [UInt8](data).split(separator: 10).enumerated() {
                do {
                    switch try rules.record(Array(line)) {
                    case .step(let step)?: reader.steps.append(step)
                    case .observation(let observation)?: reader.observations.append(observation)
                    case nil: break
                    }
                } catch {
                    throw ConfigurationError("\(directory)/\(name) line \(index + 1): \(error.message)")
                }
            }
        }
        return reader
    }
}
