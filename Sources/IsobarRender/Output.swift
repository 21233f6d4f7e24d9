#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Where a command writes text.
public protocol OutputSink: Sendable {
    /// Writes text as it is.
    func write(_ text: String)
    /// Writes UTF-8 text as it is.
    func write(utf8 bytes: [UInt8])
    /// Pushes buffered text out now.
    func flush()
    /// True when a person is looking at it (a terminal).
    var isTerminal: Bool { get }
    /// The width of the terminal in cells, when it is one and says.
    var columns: Int? { get }
    /// True once nobody reads it any more (a pipe whose reader has exited).
    var isClosed: Bool { get }
    /// Which terminal it is (its device number), when it is one and says; two sinks on the same terminal say the same.
    var terminalDevice: UInt64? { get }
}

extension OutputSink {
    /// Writes the bytes as a string.
    public func write(utf8 bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }
    /// No width: not a terminal.
    public var columns: Int? { nil }
    /// Never closed.
    public var isClosed: Bool { false }
    /// Not known.
    public var terminalDevice: UInt64? { nil }
}

/// Descriptors whose reader has gone (a write failed with EPIPE), one bit per descriptor below 64.
private let closedDescriptors = Atomic<UInt64>(0)

/// Standard output or standard error.
public struct StandardStream: OutputSink, Sendable {
    private let descriptor: Int32

    /// The stream on an open file descriptor.
    public init(descriptor: Int32) { self.descriptor = descriptor }

    /// Standard output.
    public static let output = StandardStream(descriptor: 1)
    /// Standard error.
    public static let error = StandardStream(descriptor: 2)

    /// Writes all of the text with `write(2)`, unbuffered, retrying short writes and interrupts.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes all of the bytes with `write(2)`, unbuffered, retrying short writes and interrupts.
    public func write(utf8 bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    private func write(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                if written < 0 && errno == EPIPE && descriptor < 64 {
                    closedDescriptors.bitwiseOr(UInt64(1) << UInt64(descriptor), ordering: .relaxed)
                }
                return
            }
        }
    }

    /// Nothing to do: writes are unbuffered.
    public func flush() {}
    /// True once a write failed because the reader has gone (EPIPE).
    public var isClosed: Bool { descriptor < 64 && closedDescriptors.load(ordering: .relaxed) & (UInt64(1) << UInt64(descriptor)) != 0 }
    /// `isatty` on the descriptor.
    public var isTerminal: Bool { isatty(descriptor) == 1 }
    /// The terminal's device number from `fstat`, when the descriptor is a terminal.
    public var terminalDevice: UInt64? {
        var status = stat()
        guard isTerminal, fstat(descriptor, &status) == 0 else { return nil }
        return UInt64(status.st_rdev)
    }
    /// The terminal's width from `ioctl(TIOCGWINSZ)`, or nil when it does not say.
    public var columns: Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

/// Collects text in memory (for tests and for buffering).
public final class BufferedSink: OutputSink {
    private let storage = Mutex<(text: String, flushes: Int)>(("", 0))

    /// Creates an empty buffer.
    public init() {}

    /// Appends text.
    public func write(_ text: String) { storage.withLock { $0.text += text } }
    /// Counts the flush.
    public func flush() { storage.withLock { $0.flushes += 1 } }
    /// Never a terminal.
    public var isTerminal: Bool { false }
    /// Everything written so far.
    public var text: String { storage.withLock { $0.text } }
    /// How many times it was flushed.
    public var flushCount: Int { storage.withLock { $0.flushes } }
}
