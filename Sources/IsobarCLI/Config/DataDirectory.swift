import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Finds the bundled data (`demo.json`, cassettes, places, gazetteer) wherever Isobar runs from.
public enum DataDirectory {
    /// The file whose presence marks a folder as Isobar's data.
    static let marker = "demo.json"

    /// `$ISOBAR_DATA_DIR` when set, else the first of ``candidates()`` that holds the data.
    public static func locate(environment: [String: String]) -> String? {
        if let explicit = explicit(environment) { return explicit }
        return candidates().first { FileManager.default.fileExists(atPath: $0 + "/" + marker) }
    }

    /// True when the bundled demo (its configuration and recordings) can be used.
    public static func hasDemo(environment: [String: String]) -> Bool {
        locate(environment: environment).map { FileManager.default.fileExists(atPath: $0 + "/" + marker) } ?? false
    }

    /// The folders searched when `$ISOBAR_DATA_DIR` is not set, in order: `share/isobar` beside the executable's `bin`
    /// (an installed binary), a `config` folder beside or above the executable (a build in the repository), `./config`.
    public static func candidates() -> [String] {
        var candidates: [String] = []
        if let executable = executablePath() {
            let directory = parent(executable)
            candidates.append(join(parent(directory), "share/isobar"))
            var current = directory
            for _ in 0..<6 {
                candidates.append(join(current, "config"))
                let up = parent(current)
                if up == current { break }
                current = up
            }
        }
        candidates.append(join(FileManager.default.currentDirectoryPath, "config"))
        var seen = Set<String>()
        return candidates.filter { seen.insert($0).inserted }
    }

    /// One line saying that the data cannot be found, every folder searched, and how to fix it.
    public static func notFoundMessage(environment: [String: String]) -> String {
        if let explicit = explicit(environment) {
            return "cannot find the bundled data: ISOBAR_DATA_DIR is \(explicit), which holds no \(marker); "
                + "set it to the folder holding \(marker), places.json, gazetteer/ and cassettes/, or unset it"
        }
        let searched = candidates().joined(separator: ", ")
        return "cannot find the bundled data (\(marker), places.json, gazetteer/, cassettes/); looked in \(searched); "
            + "set ISOBAR_DATA_DIR to the folder holding them, or reinstall with scripts/install.sh"
    }

    private static func explicit(_ environment: [String: String]) -> String? {
        guard let explicit = environment["ISOBAR_DATA_DIR"], !explicit.isEmpty else { return nil }
        return explicit
    }

    /// The executable's own path with every symbolic link resolved, so a link in `~/bin` still finds `share/isobar`.
    private static func executablePath() -> String? {
        guard let resolved = realpath("/proc/self/exe", nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
