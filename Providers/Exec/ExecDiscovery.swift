import FoundationEssentials

/// Finds plug-in programs named `isobar-provider-NAME` on `PATH`, then in `$XDG_DATA_HOME/isobar/providers/`, only when
/// asked (`providers --available`, `providers enable`): a program found is never run until a configuration entry names it.
public enum ExecDiscovery {
    /// The prefix of a plug-in program's file name.
    public static let prefix = "isobar-provider-"

    /// One program found.
    public struct Program: Sendable, Equatable {
        /// NAME, used as the provider id.
        public var name: String
        /// Its absolute path.
        public var path: String
    }

    /// A program hidden by another of the same name found earlier.
    public struct Shadowed: Sendable, Equatable {
        /// The hidden program.
        public var program: Program
        /// The path of the one used instead.
        public var usedInstead: String
    }

    /// The folders searched, in order: `PATH`, then the user's plug-in folder.
    public static func folders(environment: [String: String]) -> [String] {
        let path = (environment["PATH"] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["HOME"].map { $0 + "/.local/share" }
        return path + (data.map { [$0 + "/isobar/providers"] } ?? [])
    }

    /// The first program called `isobar-provider-NAME` in the folders, looked up by its path (no folder is listed).
    public static func find(_ name: String, environment: [String: String]) -> Program? {
        guard !name.isEmpty, !name.contains("/") else { return nil }
        var seenFolders = Set<String>()
        for folder in folders(environment: environment) where folder.hasPrefix("/") && seenFolders.insert(folder).inserted {
            let path = "\(folder)/\(prefix)\(name)"
            if isProgram(path) { return Program(name: name, path: path) }
        }
        return nil
    }

    /// The programs found (the first of each name wins) and those they shadow.
    public static func discover(environment: [String: String]) -> (programs: [Program], shadowed: [Shadowed]) {
        let manager = FileManager.default
        var programs: [Program] = []
        var shadowed: [Shadowed] = []
        var seenFolders = Set<String>()
        for folder in folders(environment: environment) where folder.hasPrefix("/") && seenFolders.insert(folder).inserted {
            let names = ((try? manager.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(prefix) && $0.count > prefix.count }.sorted()
            for file in names {
                let path = "\(folder)/\(file)"
                guard isProgram(path) else { continue }
                let program = Program(name: String(file.dropFirst(prefix.count)), path: path)
                if let first = programs.first(where: { $0.name == program.name }) {
                    shadowed.append(Shadowed(program: program, usedInstead: first.path))
                } else {
                    programs.append(program)
                }
            }
        }
        return (programs, shadowed)
    }

    /// True for an executable file that is not a folder.
    private static func isProgram(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory && FileManager.default.isExecutableFile(atPath: path)
    }
}
