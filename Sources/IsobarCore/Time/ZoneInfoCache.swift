import Synchronization

/// The IANA zones a process has read, each zone file read and parsed once rather than once per merge.
///
/// Keyed by directory and name; only zones that loaded are kept (a failure is tried again next time), at most `capacity`
/// of them, so that a run over every zone there is still holds a bounded number.
public enum ZoneInfoCache {
    private static let zones = Mutex<[String: ZoneInfo]>([:])
    /// The most zones kept; past it the set is started afresh.
    public static let capacity = 1024

    /// The zone `identifier` from `directory`, read from its file the first time it is asked for.
    public static func zone(identifier: String, directory: String) throws(ZoneInfoError) -> ZoneInfo {
        let key = directory + "\u{0}" + identifier
        if let kept = zones.withLock({ $0[key] }) { return kept }
        let loaded = try ZoneInfo.load(identifier: identifier, directory: directory)
        zones.withLock { zones in
            if zones.count >= capacity { zones.removeAll() }
            zones[key] = loaded
        }
        return loaded
    }
}
