import Synchronization

/// The bundled places, read from their file the first time a name is looked up: coordinates are named without them.
final class BundledPlaces: Sendable {
    private let load: @Sendable () throws(PlaceError) -> PlaceDirectory
    private let loaded = Mutex<PlaceDirectory?>(nil)

    /// Places that `load` reads when first asked for.
    init(_ load: @escaping @Sendable () throws(PlaceError) -> PlaceDirectory) {
        self.load = load
    }

    /// Places given already read (tests).
    convenience init(_ directory: PlaceDirectory) {
        self.init { () throws(PlaceError) -> PlaceDirectory in directory }
    }

    /// The places, read on the first call; a file that cannot be read is an error at each call.
    func directory() throws(PlaceError) -> PlaceDirectory {
        if let kept = loaded.withLock({ $0 }) { return kept }
        let read = try load()
        loaded.withLock { $0 = read }
        return read
    }
}
