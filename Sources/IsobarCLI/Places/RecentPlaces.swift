import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The places asked about lately by name, one per line in `recent-places` beside the user's cities: what shell completion
/// offers besides the saved cities and home. Only names that resolved are kept, never coordinates; the file is a
/// convenience (remembering is best effort, and deleting it loses nothing else).
struct RecentPlaces {
    /// The file's name in the user's data folder.
    static let fileName = "recent-places"
    /// How many distinct names are offered.
    static let kept = 20
    /// The longest name kept.
    static let longestName = 100
    /// The file's size past which it is rewritten with only the names offered.
    static let compactAboveBytes = 4_096

    /// The file.
    let path: String

    /// The file in `directory` (the user's data folder).
    init(directory: String) { path = directory + "/" + Self.fileName }

    /// Adds `name` as the newest: one appended line (a write that concurrent commands cannot interleave), the file compacted
    /// when it grows past `compactAboveBytes`. Failures are ignored: nothing depends on it.
    func remember(_ name: String) {
        guard let line = Self.cleaned(name) else { return }
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        var status = stat()
        let size = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
        close(descriptor)
        if written == bytes.count, size > Self.compactAboveBytes { compact() }
    }

    /// The names to offer, newest first, each once (compared without case).
    func names() -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        var seen = Set<String>()
        var names: [String] = []
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n").reversed() {
            guard let name = Self.cleaned(String(line)), seen.insert(name.lowercased()).inserted else { continue }
            names.append(name)
            if names.count == Self.kept { break }
        }
        return names
    }

    /// `name` as a line of the file: trimmed, without control characters, at most `longestName` characters; nil when empty.
    static func cleaned(_ name: String) -> String? {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: name.unicodeScalars.filter { $0.properties.generalCategory != .control })
        let cleaned = String(scalars).trimmingSpaces()
        guard !cleaned.isEmpty, cleaned.count <= longestName else { return nil }
        return cleaned
    }

    /// Rewrites the file with the names offered, oldest first, through a file renamed over it.
    private func compact() {
        let lines = names().reversed().map { $0 + "\n" }.joined()
        let temporary = path + ".\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(lines.utf8), attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary, path) != 0 { unlink(temporary) }
    }
}
