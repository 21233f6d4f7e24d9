import IsobarCore
import Synchronization

/// The calendars of the IANA zones a run has met, each zone file read once per run instead of once per place.
///
/// Only zones whose file loaded are kept (a fallback depends on each place's own offset); at most `capacity` of them, so
/// that a run over every zone there is still holds a bounded number.
final class ZoneCalendars: Sendable {
    private let calendars = Mutex<[String: LocalCalendar]>([:])
    /// The most calendars kept; past it the set is started afresh.
    static let capacity = 1024

    /// The place's calendar in its own named zone; nil when it has none or its file cannot be used.
    func calendar(for place: Place) -> LocalCalendar? {
        guard let identifier = place.timeZoneIdentifier else { return nil }
        if let kept = calendars.withLock({ $0[identifier] }) { return kept }
        let resolved = LocalCalendar.resolve(place: place, reports: [])
        guard case .named = resolved.zone else { return nil }
        calendars.withLock { calendars in
            if calendars.count >= Self.capacity { calendars.removeAll() }
            calendars[identifier] = resolved
        }
        return resolved
    }
}
