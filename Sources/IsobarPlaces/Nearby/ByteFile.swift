#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file read in parts with `pread`, never mapped, so a file that shrinks while open gives a short read, not a crash;
/// or, when asked and small enough, read whole once it has been read in parts often enough, and answered from memory after
/// that: a command that names one coordinate reads a few cells of the spatial index, a batch naming thousands reads it once.
final class ByteFile {
    /// The path, for messages.
    let path: String
    /// The size when opened, in bytes.
    let size: Int
    private let descriptor: Int32
    /// The whole file, once it was read into memory.
    private var contents: [UInt8]?
    /// Reads in parts left before the whole file is read into memory; nil when it never is.
    private var partsBeforeWhole: Int?

    /// Reads in parts a file allowed in memory takes before it is read whole: enough for a few lookups of the spatial index
    /// (each reads its header, zones, and a few cell rows and entries).
    static let partsBeforeReadingWhole = 48

    /// Opens `path` for reading; `what` names the file in errors ("the place index"). A file of at most `inMemoryUpTo`
    /// bytes is read whole after `partsBeforeReadingWhole` reads in parts, and every read after that is answered from memory.
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
        if size <= limit { partsBeforeWhole = Self.partsBeforeReadingWhole }
    }

    /// Reads the file whole when its reads in parts are used up; a file that shrank meanwhile is read part by part instead
    /// (and its short reads say it is damaged).
    private func readWholeWhenDue() {
        guard contents == nil, let left = partsBeforeWhole else { return }
        guard left == 0 else {
            partsBeforeWhole = left - 1
            return
        }
        partsBeforeWhole = nil
        contents = readFromFile(at: 0, count: size)
    }

    deinit { close(descriptor) }

    /// `body` over exactly `count` bytes from `offset`, without copying them when the file is in memory; nil when they are
    /// not all there.
    func withBytes<Result>(at offset: Int, count: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(GazetteerError) -> Result)
        throws(GazetteerError) -> Result? {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }
        readWholeWhenDue()
        if let contents {
            return try contents.withUnsafeBufferPointer { whole throws(GazetteerError) in
                try body(UnsafeBufferPointer(rebasing: whole[offset..<(offset + count)]))
            }
        }
        guard let bytes = readFromFile(at: offset, count: count) else { return nil }
        return try bytes.withUnsafeBufferPointer { buffer throws(GazetteerError) in try body(buffer) }
    }

    /// Exactly `count` bytes from `offset`; nil when they are not all there (or `offset`/`count` are out of range).
    func read(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }
        readWholeWhenDue()
        if let contents { return Array(contents[offset..<(offset + count)]) }
        return readFromFile(at: offset, count: count)
    }

    /// Exactly `count` bytes from `offset` read from the file (the range is checked by the caller), into a buffer that is
    /// not cleared first; nil after a short read.
    private func readFromFile(at offset: Int, count: Int) -> [UInt8]? {
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            if let base = buffer.baseAddress {
                while done < count {
                    let got = pread(descriptor, base + done, count - done, off_t(offset + done))
                    if got < 0 && errno == EINTR { continue }
                    guard got > 0 else { break }
                    done += got
                }
            }
            complete = done == count
            // Only what was read counts as initialised.
            initialized = done
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
