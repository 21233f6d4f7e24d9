import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Finds the bundled data (`config/demo.json`, cassettes, places) wherever Isobar runs from.
public enum DataDirectory {
    /// The first of: `$ISOBAR_DATA_DIR`, a `config` folder beside or above the executable, `./config`.
    public static func locate(environment: [String: String]) -> String? {
        let manager = FileManager.default
        if let explicit = environment["ISOBAR_DATA_DIR"], !explicit.isEmpty { return explicit }
        var candidates: [String] = []
        if var directory = executablePath().map(parent) {
            for _ in 0..<6 {
                candidates.append(directory + "/config")
                candidates.append(directory + "/share/isobar")
                let up = parent(directory)
                if up == directory { break }
                directory = up
            }
        }
        candidates.append(manager.currentDirectoryPath + "/config")
        return candidates.first { manager.fileExists(atPath: $0 + "/demo.json") }
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
