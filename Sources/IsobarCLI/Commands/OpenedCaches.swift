import IsobarStore
import Synchronization

/// The cache files a command opened, finished when the command ends (see `Store.finishWriting`): a command that wrote to
/// the cache leaves no WAL for the next one to read back. The command line sees to it, not each command.
final class OpenedCaches: Sendable {
    private let stores = Mutex<[Store]>([])

    /// Notes a store the command opened.
    func add(_ store: Store) {
        stores.withLock { $0.append(store) }
    }

    /// Finishes every store noted, in the order they were opened, and forgets them.
    func finish() async {
        let opened = stores.withLock { stores in
            defer { stores.removeAll() }
            return stores
        }
        for store in opened { await store.finishWriting() }
    }
}
