import FoundationEssentials

/// An alert in force, as shown: the message of the first source, with every source that sent the same event.
public struct ActiveAlert: Sendable, Equatable {
    /// The alert shown, exactly as its source sent it.
    public var alert: Alert
    /// Every provider that sent it, the shown one first.
    public var sources: [String]
    /// The same event as the other sources sent it (their own text and axes), never blended into `alert`.
    public var alsoSent: [Alert]

    /// Creates an alert in force.
    public init(alert: Alert, sources: [String]? = nil, alsoSent: [Alert] = []) {
        self.alert = alert
        self.sources = sources ?? [alert.source]
        self.alsoSent = alsoSent
    }
}

/// The alerts in force at a place, from every source's messages: CAP's Update and Cancel applied, ended alerts dropped, the
/// same event from several sources shown once, most severe first. Nothing is averaged or invented.
public enum AlertMerge {
    /// The alerts in force at `now` for `coordinate`:
    /// 1. a message named in the `references` of an Update or a Cancel is gone (replaced or withdrawn), whichever source
    ///    sent it; a reference to a message not seen changes nothing; a Cancel is never shown itself;
    /// 2. an alert past its `ends` or `expires` is gone; one with neither stays while its source lists it;
    /// 3. an alert whose polygons leave out the place is gone (one with area codes only was chosen for the place by its source);
    /// 4. alerts of different sources with the same event type (ignoring case), overlapping event periods, both covering the place,
    ///    are one: the first in `AlertOrder` is shown, the others kept in `alsoSent`, every source named;
    /// 5. the result is in `AlertOrder`.
    public static func active(_ messages: [Alert], at now: Date, for coordinate: Coordinate? = nil) -> [ActiveAlert] {
        let superseding = messages.filter { $0.messageType != .alert }.flatMap(\.references)
        let standing = messages.filter { message in
            message.messageType != .cancel
                && !superseding.contains { message.identity.isNamed(by: $0) }
                && message.isCurrent(at: now)
                && (coordinate.flatMap { message.area.contains($0) } ?? true)
        }
        var shown: [ActiveAlert] = []
        for alert in AlertOrder.sorted(unique(standing)) {
            if let index = shown.firstIndex(where: { sameEvent($0.alert, alert) && !$0.sources.contains(alert.source) }) {
                shown[index].sources.append(alert.source)
                shown[index].alsoSent.append(alert)
            } else {
                shown.append(ActiveAlert(alert: alert))
            }
        }
        return shown
    }

    /// True when two alerts describe one event: the same event type (ignoring case and spacing) over event periods (start
    /// to `eventEnd`) that overlap. The event's period, not the message's: NWS's message may expire before its event begins
    /// (it is renewed), while a source passing it on (OpenWeatherMap) gives the event's start and end.
    public static func sameEvent(_ first: Alert, _ second: Alert) -> Bool {
        guard normalised(first.event) == normalised(second.event) else { return false }
        let firstStart = first.start ?? .distantPast, secondStart = second.start ?? .distantPast
        let firstEnd = first.eventEnd ?? .distantFuture, secondEnd = second.eventEnd ?? .distantFuture
        return firstStart < secondEnd && secondStart < firstEnd
    }

    /// The messages with one copy of each identity and event (a source that lists a message twice, or the same CAP file
    /// fetched twice; a CAP message with two `info` blocks in one language for two events keeps both).
    private static func unique(_ alerts: [Alert]) -> [Alert] {
        var seen: Set<String> = []
        return alerts.filter { seen.insert($0.identity.sender + "\u{1F}" + $0.identity.identifier + "\u{1F}" + $0.event).inserted }
    }

    private static func normalised(_ event: String) -> String { event.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased() }
}

/// The order alerts are shown in: most severe first, then most urgent, then the earliest start, then the event's name,
/// then the source (so that the order never depends on which source answered first).
public enum AlertOrder {
    /// True when `first` is shown before `second`.
    public static func precedes(_ first: Alert, _ second: Alert) -> Bool {
        if first.severity != second.severity { return first.severity > second.severity }
        if first.urgency != second.urgency { return first.urgency > second.urgency }
        let firstStart = first.start ?? .distantFuture, secondStart = second.start ?? .distantFuture
        if firstStart != secondStart { return firstStart < secondStart }
        if first.event != second.event { return first.event < second.event }
        if first.source != second.source { return first.source < second.source }
        return first.identity.identifier < second.identity.identifier
    }

    /// `alerts` in display order.
    public static func sorted(_ alerts: [Alert]) -> [Alert] { alerts.sorted(by: precedes) }
}
