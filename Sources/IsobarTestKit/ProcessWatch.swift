import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Outcome checks for tests that start real processes: a marker file, and which of some processes are still alive.
public enum ProcessWatch {
    /// The numbers in a file of pids, one a line; nil when there is no such file or it is empty.
    public static func pids(in file: String) -> [Int32]? {
        let numbers = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
        return numbers.isEmpty ? nil : numbers
    }

    /// True once the file exists; false if it has not appeared after a generous while (an outcome, not a measured time).
    public static func appears(_ file: String) async -> Bool {
        for _ in 0..<600 {
            if FileManager.default.fileExists(atPath: file) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Those of `pids` still alive as a shell or a `sleep` (a zombie, or a number reused by another program, counts as gone),
    /// once they are all gone or after a generous while: processes left behind are reparented, and go away asynchronously.
    public static func survivors(_ pids: [Int32]) async -> [Int32] {
        var left = pids.filter(isAliveShellOrSleep)
        for _ in 0..<200 where !left.isEmpty {
            try? await Task.sleep(for: .milliseconds(50))
            left = left.filter(isAliveShellOrSleep)
        }
        return left
    }

    /// True when `pid` runs, not as a zombie, a shell or `sleep`.
    private static func isAliveShellOrSleep(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno != ESRCH,
              let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return false }
        let name = stat[stat.index(after: open)..<close]
        let state = stat[stat.index(after: close)...].split(separator: " ").first
        return ["sh", "dash", "bash", "sleep"].contains(name) && state != "Z" && state != "X"
    }
}
