#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file read in parts with `pread`, never mapped, so a file that shrinks while open gives a short read, not a crash;
/// or, when asked and small enough, read whole when opened and answered from memory after that.
final class ByteFile {
    /// The path, for messages.
    let path: String
    /// The size when opened, in bytes.
    let size: Int
    private let descriptor: Int32
    /// The whole file as it was when opened, when it was read into memory.
    private var contents: [UInt8]?

    /// Opens `path` for reading; `what` names the file in errors ("the place index"). A file of at most `inMemoryUpTo`
    /// bytes is read whole now, and every read after that is answered from memory.
    init(path: String, what: String, inMemoryUpTo limit: Int = 0) throws(GazetteerError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let missing = errno == ENOENT
            throw GazetteerError(missing ? .missingFile : .unreadableFile,
                                 missing ? "\(what) \(path) does not exist (make it with scripts/make-gazetteer.py)"
                                     : "\(what) \(path) cannot be opened")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw GazetteerError(.unreadableFile, "\(what) \(path) is not a regular file")
        }
        self.path = path
        self.descriptor = descriptor
        size = Int(info.st_size)
        // A file that shrank meanwhile is read part by part instead (and its short reads say it is damaged).
        if size <= limit { contents = read(at: 0, count: size) }
    }

    deinit { close(descriptor) }

    /// `body` over exactly `count` bytes from `offset`, without copying them when the file is in memory; nil when they are
    /// not all there.
    func withBytes<Result>(at offset: Int, count: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(GazetteerError) -> Result)
        throws(GazetteerError) -> Result? {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }
        if let contents {
            return try contents.withUnsafeBufferPointer { whole throws(GazetteerError) in
                try body(UnsafeBufferPointer(rebasing: whole[offset..<(offset + count)]))
            }
        }
        guard let bytes = read(at: offset, count: count) else { return nil }
        return try bytes.withUnsafeBufferPointer { buffer throws(GazetteerError) in try body(buffer) }
    }

    /// Exactly `count` bytes from `offset`; nil when they are not all there (or `offset`/`count` are out of range).
    func read(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }
        if let contents { return Array(contents[offset..<(offset + count)]) }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            while done < count {
                let got = pread(descriptor, base + done, count - done, off_t(offset + done))
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return false }
                done += got
            }
            return true
        }
        return complete ? bytes : nil
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The little-endian `UInt32` at `index`; the caller checks that four bytes are there.
    func littleEndianUInt32(at index: Int) -> UInt32 {
        UInt32(self[index]) | UInt32(self[index + 1]) << 8 | UInt32(self[index + 2]) << 16 | UInt32(self[index + 3]) << 24
    }

    /// The little-endian `UInt16` at `index`.
    func littleEndianUInt16(at index: Int) -> UInt16 { UInt16(self[index]) | UInt16(self[index + 1]) << 8 }
}

extension Array where Element == UInt8 {
    /// The little-endian `UInt32` at `index`; the caller checks that four bytes are there.
    func littleEndianUInt32(at index: Int) -> UInt32 {
        UInt32(self[index]) | UInt32(self[index + 1]) << 8 | UInt32(self[index + 2]) << 16 | UInt32(self[index + 3]) << 24
    }

    /// The little-endian `UInt16` at `index`.
    func littleEndianUInt16(at index: Int) -> UInt16 { UInt16(self[index]) | UInt16(self[index + 1]) << 8 }
}
