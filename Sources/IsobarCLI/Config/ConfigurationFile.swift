#if canImport(Glibc)
import Glibc
#endif

/// Finding and reading a configuration file: a file that is there but cannot be read is an error naming it and the
/// system's reason, never a reason to fall back to other settings.
enum ConfigurationFile {
    /// True when anything is at `path`, a symbolic link that leads nowhere (or round in a loop) included.
    static func isPresent(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// The file's bytes, read through a small uninitialised buffer into an array sized by the file.
    static func read(_ path: String) throws(ConfigurationError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(path, errno) }
        defer { close(descriptor) }
        var info = stat()
        var bytes: [UInt8] = []
        if fstat(descriptor, &info) == 0 { bytes.reserveCapacity(max(0, Int(info.st_size))) }
        let failure = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { chunk -> Int32 in
            while true {
                let count = Glibc.read(descriptor, chunk.baseAddress, chunk.count)
                if count == 0 { return 0 }
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[..<count]))
            }
        }
        guard failure == 0 else { throw unreadable(path, failure) }
        return bytes
    }

    private static func unreadable(_ path: String, _ number: Int32) -> ConfigurationError {
        ConfigurationError("cannot read the configuration file \(path) (\(String(cString: strerror(number))))")
    }
}
