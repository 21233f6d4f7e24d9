import FoundationEssentials
import Synchronization

/// Moves a damaged store file aside so that a new one can be built, once per damage for all the executors on that file.
///
/// Each executor remembers the generation its connection was opened in; one that finds damage moves the file aside
/// (unless another did since that generation) and reconnects, and the others reconnect when they see the generation move.
/// Moves happen only on executors' threads; `generation` is also read by inline readers, to find their connections stale.
final class Recovery: Sendable {
    /// The damaged file's path.
    let path: String
    private let warn: @Sendable (String) -> Void
    private let moves = Mutex(0)

    /// Recovery for the file at `path`, telling people through `warn`.
    init(path: String, warn: @escaping @Sendable (String) -> Void) {
        self.path = path
        self.warn = warn
    }

    /// How many times the file was moved aside.
    var generation: Int { moves.withLock { $0 } }

    /// Moves the file (and its `-wal` and `-shm`) aside, unless that was done since generation `seen`.
    func moveAside(seen: Int) {
        let message: String? = moves.withLock { moves in
            guard moves == seen else { return nil }
            moves += 1
            return move()
        }
        if let message { warn(message) }
    }

    private func move() -> String {
        let manager = FileManager.default
        let stem = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
        var aside = stem
        var attempt = 1
        while manager.fileExists(atPath: aside) {
            attempt += 1
            aside = stem + "-\(attempt)"
        }
        var failures: [String] = []
        for suffix in ["", "-wal", "-shm"] where manager.fileExists(atPath: path + suffix) {
            do {
                try manager.moveItem(atPath: path + suffix, toPath: aside + suffix)
            } catch {
                failures.append("\(path + suffix): \(error)")
            }
        }
        guard failures.isEmpty else {
            return "the cache \(path) was damaged and cannot be moved aside (\(failures.joined(separator: "; ")))"
        }
        return "the cache \(path) was damaged; moved it to \(aside) and started a new one"
    }
}
