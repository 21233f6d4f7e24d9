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

    /// The file's bytes.
    static func read(_ path: String) throws(ConfigurationError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(path, errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw unreadable(path, errno)
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    private static func unreadable(_ path: String, _ number: Int32) -> ConfigurationError {
        ConfigurationError("cannot read the configuration file \(path) (\(String(cString: strerror(number))))")
    }
}
