import IsobarCore
#if canImport(Glibc)
import Glibc
#endif

/// One line of batch input, as read.
struct InputLine: Sendable, Equatable {
    /// Its number in the input, from 1.
    var number: Int
    /// Its text without the line break (only the first `InputLines.maxLineBytes` bytes of a longer line).
    var text: String
    /// True when the line was longer than `InputLines.maxLineBytes` bytes; the rest was skipped unread into memory.
    var isTooLong: Bool
}

/// Reads an input's lines lazily, a chunk at a time and only when asked, on a thread of its own: a pipe or a terminal that
/// blocks never holds a thread of the cooperative pool, and however long the input, at most one chunk is in memory.
final class InputLines: @unchecked Sendable {
    // Safety of `@unchecked Sendable`: `buffer`, `start`, `end`, `number` and `atEnd` are read and written only by the
    // reading thread; what crosses threads is in `handoff`.
    private let handoff = ConditionLock(Handoff())
    private let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var number = 0
    private var atEnd = false

    /// The longest line read, in bytes; a longer one is an `input_error`.
    static let maxLineBytes = 4096
    /// Lines handed over at once.
    static let chunkLines = 64

    /// Reads `descriptor` (closed when the input ends or the reader stops) on a new thread.
    init(descriptor: Int32) {
        self.descriptor = descriptor
        ReaderThread.start { [self] in self.run() }
    }

    /// What the caller and the reading thread share: the caller waiting for lines, whether it asked for more, whether reading
    /// stopped.
    private struct Handoff: Sendable {
        var waiting: CheckedContinuation<[InputLine]?, Never>?
        var asked = false
        var stopped = false
    }

    /// Opens `path` (`-` for standard input) for reading; nil with the reason when it cannot be read.
    static func open(_ path: String) -> Result<InputLines, InputError> {
        guard path != "-" else { return .success(InputLines(descriptor: dup(0))) }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(InputError("cannot read \(path): \(String(cString: strerror(errno)))")) }
        var info = stat()
        if fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            return .failure(InputError("cannot read \(path): it is a directory"))
        }
        return .success(InputLines(descriptor: descriptor))
    }

    /// The next lines (up to `chunkLines`); nil at the end of the input or once stopped.
    func next() async -> [InputLine]? {
        await withCheckedContinuation { (continuation: CheckedContinuation<[InputLine]?, Never>) in
            let refused = handoff.withLock { handoff -> Bool in
                guard !handoff.stopped else { return true }
                handoff.waiting = continuation
                handoff.asked = true
                return false
            }
            if refused { continuation.resume(returning: nil) } else { handoff.signal() }
        }
    }

    /// Stops reading: a caller waiting for lines gets nil now, whatever the thread is blocked on.
    func stop() {
        let waiter = handoff.withLock { handoff -> CheckedContinuation<[InputLine]?, Never>? in
            handoff.stopped = true
            defer { handoff.waiting = nil }
            return handoff.waiting
        }
        handoff.signal()
        waiter?.resume(returning: nil)
    }

    /// The thread: waits to be asked, reads a chunk, hands it over; ends at the end of the input or when stopped.
    private func run() {
        defer { close(descriptor) }
        while true {
            let go = handoff.withLock(when: { $0.asked || $0.stopped }) { handoff -> Bool in
                handoff.asked = false
                return !handoff.stopped
            }
            guard go else { return }
            let lines = readChunk()
            let waiter = handoff.withLock { handoff -> CheckedContinuation<[InputLine]?, Never>? in
                defer { handoff.waiting = nil }
                return handoff.waiting
            }
            waiter?.resume(returning: lines.isEmpty ? nil : lines)
            if lines.isEmpty { return }
        }
    }

    private func readChunk() -> [InputLine] {
        var lines: [InputLine] = []
        while lines.count < Self.chunkLines, let line = readLine() { lines.append(line) }
        return lines
    }

    /// One line, its bytes beyond `maxLineBytes` read and dropped; nil at the end of the input.
    private func readLine() -> InputLine? {
        var kept: [UInt8] = []
        var tooLong = false
        while true {
            if start == end {
                guard fill() else {
                    guard !kept.isEmpty || tooLong else { return nil }
                    break
                }
            }
            let newline = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n"))
            let stop = newline ?? end
            let room = Self.maxLineBytes - kept.count
            if stop - start > room {
                kept += buffer[start..<(start + room)]
                tooLong = true
            } else {
                kept += buffer[start..<stop]
            }
            start = newline.map { $0 + 1 } ?? end
            if newline != nil { break }
        }
        number += 1
        if kept.last == UInt8(ascii: "\r") { kept.removeLast() }
        return InputLine(number: number, text: String(decoding: kept, as: UTF8.self), isTooLong: tooLong)
    }

    /// Reads more bytes into the buffer; false at the end of the input (or on an error reading it).
    private func fill() -> Bool {
        guard !atEnd else { return false }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                start = 0
                end = count
                return true
            }
            if count < 0 && errno == EINTR { continue }
            atEnd = true
            return false
        }
    }

    /// Non-blank lines in a regular file, counted in one streaming pass; nil for anything else (a pipe, a terminal).
    static func countNonBlank(path: String) -> Int? {
        guard path != "-" else { return nil }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var count = 0
        var blank = true
        while true {
            let read = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { break }
            for byte in chunk[0..<read] {
                if byte == UInt8(ascii: "\n") {
                    if !blank { count += 1 }
                    blank = true
                } else if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r") {
                    blank = false
                }
            }
        }
        return blank ? count : count + 1
    }
}

/// The batch input cannot be read at all (a missing file, a directory).
struct InputError: Error, Sendable {
    /// One line saying why.
    let message: String
    /// Creates the error.
    init(_ message: String) { self.message = message }
}

/// Starts plain threads for blocking work.
enum ReaderThread {
    /// Runs `body` on a new detached thread (see `PlainThread`), or here when no thread can be started, rather than never.
    static func start(_ body: @escaping @Sendable () -> Void) {
        if case .failure = PlainThread.detach(body) { body() }
    }
}
