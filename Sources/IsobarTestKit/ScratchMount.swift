import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs of its own for one test, to fill or make read-only; only where this process may mount (root, as in CI here).
public final class ScratchMount {
    /// Where it is mounted.
    public let path: String
    private let options: String

    /// True when a tmpfs can be mounted here; tests that need one are skipped otherwise.
    public static let available: Bool = ScratchMount(kilobytes: 64) != nil

    /// Mounts a tmpfs of `kilobytes` on a new temporary folder; nil when mounting is not allowed.
    public init?(kilobytes: Int) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-tmpfs-\(UUID().uuidString)").path
        guard (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil else { return nil }
        options = "size=\(kilobytes)k,mode=0755"
        guard mount("tmpfs", path, "tmpfs", 0, options) == 0 else { return nil }
    }

    deinit { umount2(path, Int32(MNT_DETACH)) }

    /// Makes the mount read-only, as a disk that went read-only under a running system; waits up to five seconds for files
    /// still open for writing (a store closing on its own thread) to be closed.
    public func remountReadOnly() async throws -> Bool {
        for _ in 0..<500 {
            // MS_REMOUNT | MS_RDONLY.
            if mount("tmpfs", path, "tmpfs", 32 | 1, options) == 0 { return true }
            guard errno == EBUSY else { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// Fills the mount with one file until the disk refuses; returns that file, to remove when room is needed again.
    public func fill() -> String {
        let filler = path + "/filler"
        let descriptor = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0xAB, count: 512)
        while write(descriptor, block, block.count) > 0 {}
        return filler
    }
}

/// Waits until SQLite has closed the file at `path` (its `-wal` is gone), for at most thirty seconds (a loaded machine); true
/// when it has.
public func waitUntilClosed(_ path: String) async throws -> Bool {
    for _ in 0..<3_000 {
        if !FileManager.default.fileExists(atPath: path + "-wal") { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return false
}
