#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import IsobarCore
import IsobarStore

extension IsobarCommandLine {
    /// The most bad lines an import names before counting the rest.
    static let importErrorsShown = 20

    /// `isobar archive import FILE|-`: the steps and observations of an archive export (JSON lines, metric) added to the
    /// archive, those already there skipped, and folded into the skill record. All or nothing: any bad line is named with
    /// its line number and nothing is imported (exit code 6); an unreadable file is exit code 66.
    func importArchive(_ parsed: Invocation, into store: UserDataStore, jsonl: Bool) async throws -> ExitCode {
        guard parsed.positionals.count == 2 else { throw UsageError("archive import needs a FILE (or - for stdin): isobar archive import FILE") }
        let path = parsed.positionals[1]
        guard let bytes = Self.readAll(path) else {
            errors.write("isobar: cannot read \(path == "-" ? "stdin" : path)\n")
            return .noInput
        }
        var reader = ArchiveExportReader()
        var bad = 0
        let name = path == "-" ? "stdin" : path
        for (index, line) in bytes.split(separator: 10, omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { $0 != 32 && $0 != 9 && $0 != 13 }) else { continue }
            do {
                try reader.add(Array(line))
            } catch {
                bad += 1
                if bad <= Self.importErrorsShown { errors.write("isobar: \(name) line \(index + 1): \(error.message)\n") }
            }
        }
        if bad > 0 {
            if bad > Self.importErrorsShown { errors.write("isobar: … and \(bad - Self.importErrorsShown) more bad line(s)\n") }
            errors.write("isobar: nothing was imported: \(bad) line(s) are not archive export lines\n")
            return .badImport
        }
        let count = try await store.importArchive(steps: reader.steps, observations: reader.observations)
        let settled = try await store.foldSkill()
        output.write(jsonl ? line("archive_imported", [("steps", .integer(count.steps)), ("observations", .integer(count.observations)),
                                                        ("skipped", .integer(reader.steps.count + reader.observations.count - count.steps - count.observations)),
                                                        ("folded", .integer(settled)), ("path", .string(store.path))])
                           : "Imported \(count.steps) forecast step(s) and \(count.observations) observation(s) into \(store.path) "
                             + "(\(reader.steps.count + reader.observations.count - count.steps - count.observations) already there); "
                             + "\(settled) step(s) folded into the skill record.\n")
        return .success
    }

    /// Every byte of a file, or of stdin for `-`; nil when it cannot be read.
    static func readAll(_ path: String) -> [UInt8]? {
        guard path == "-" else {
            var status = stat()
            guard stat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFDIR, let data = FileManager.default.contents(atPath: path) else { return nil }
            return [UInt8](data)
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }
}
