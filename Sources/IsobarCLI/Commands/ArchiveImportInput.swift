#if canImport(Glibc)
import Glibc
#endif
import IsobarCore
import IsobarStore
import Synchronization

/// The input of `archive import`, read a bounded batch of records at a time: at most one chunk of bytes, one line (of at
/// most `maxLineBytes`) and one batch of records are in memory, however long the input. Bad lines are counted and the
/// first `shownErrors` named; after the first one nothing more is handed over, the rest is only checked.
final class ArchiveImportInput: Sendable {
    /// The longest line read, in bytes (1 MiB); a longer one is refused unread.
    static let maxLineBytes = 1 << 20
    /// Records handed over at once.
    static let batchRecords = 5_000
    /// The most bad lines named before the rest are only counted.
    static let shownErrors = 20

    /// What was read so far.
    struct Tally: Sendable {
        /// Records read (steps and observations), whether or not added.
        var records = 0
        /// Lines refused.
        var bad = 0
        /// The first `shownErrors` refusals, as `line N: why`.
        var errors: [String] = []
    }

    private struct State: ~Copyable {
        let descriptor: Int32
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var start = 0
        var end = 0
        var atEnd = false
        var failed = false
        var number = 0
        var tally = Tally()
    }

    private let state: Mutex<State>
    private let rules: ArchiveLineRules

    private init(descriptor: Int32, rules: ArchiveLineRules) {
        state = Mutex(State(descriptor: descriptor))
        self.rules = rules
    }

    deinit { state.withLock { _ = close($0.descriptor) } }

    /// Opens `path` (`-` for standard input) for reading; nil when it cannot be read (missing, a directory, not permitted).
    static func open(_ path: String, rules: ArchiveLineRules) -> ArchiveImportInput? {
        let descriptor = path == "-" ? dup(0) : Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else {
            close(descriptor)
            return nil
        }
        return ArchiveImportInput(descriptor: descriptor, rules: rules)
    }

    /// What was read so far.
    var tally: Tally { state.withLock { $0.tally } }

    /// The next batch: up to `batchRecords` records, `.end` at the end of a clean input, `.refused` (once the whole input
    /// was checked) when a line was bad or the input could not be read.
    func next() -> ArchiveImportBatch {
        state.withLock { state in
            var records: [ArchivedRecord] = []
            while records.count < Self.batchRecords || state.tally.bad > 0, let line = Self.readLine(&state) {
                guard let bytes = line else {
                    refuse(&state, "longer than \(Self.maxLineBytes / 1_048_576) MiB")
                    continue
                }
                guard bytes.contains(where: { $0 != 32 && $0 != 9 && $0 != 13 }) else { continue }
                switch Result(catching: { () throws(ConfigurationError) in try rules.record(bytes) }) {
                case .success(let record?):
                    state.tally.records += 1
                    if state.tally.bad == 0 { records.append(record) }
                case .success(nil):
                    continue
                case .failure(let error):
                    refuse(&state, error.message)
                }
            }
            if state.tally.bad > 0 || state.failed { return .refused }
            return records.isEmpty ? .end : .records(records)
        }
    }

    private func refuse(_ state: inout State, _ why: String) {
        state.tally.bad += 1
        if state.tally.errors.count < Self.shownErrors { state.tally.errors.append("line \(state.number): \(why)") }
    }

    /// The next line's bytes without its break; nil inside for a line longer than `maxLineBytes` (the rest skipped
    /// unread into memory); nil at the end of the input.
    private static func readLine(_ state: inout State) -> [UInt8]?? {
        var kept: [UInt8] = []
        var tooLong = false
        var any = false
        while true {
            if state.start == state.end {
                guard fill(&state) else {
                    guard any else { return nil }
                    break
                }
            }
            any = true
            let newline = state.buffer[state.start..<state.end].firstIndex(of: 10)
            let stop = newline ?? state.end
            if !tooLong {
                if kept.count + (stop - state.start) > maxLineBytes {
                    tooLong = true
                    kept = []
                } else {
                    kept += state.buffer[state.start..<stop]
                }
            }
            state.start = newline.map { $0 + 1 } ?? state.end
            if newline != nil { break }
        }
        state.number += 1
        return tooLong ? .some(nil) : kept
    }

    /// Reads more bytes into the buffer; false at the end of the input, or on an error reading it (then `failed`).
    private static func fill(_ state: inout State) -> Bool {
        guard !state.atEnd else { return false }
        while true {
            let descriptor = state.descriptor
            let count = state.buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                state.start = 0
                state.end = count
                return true
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { state.failed = true }
            state.atEnd = true
            return false
        }
    }
}
