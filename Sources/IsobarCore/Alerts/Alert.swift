import FoundationEssentials

/// One official warning as its issuer sent it (one CAP `info` block of one message), with its source; Isobar never alters
/// its text.
public struct Alert: Sendable, Equatable {
    /// The message's CAP identity.
    public var identity: AlertIdentity
    /// Whether it is new, replaces earlier messages or withdraws them.
    public var messageType: AlertMessageType
    /// The messages it replaces or withdraws.
    public var references: [AlertIdentity]
    /// The event type, e.g. `Winter Storm Warning`, `Wind`.
    public var event: String
    /// One line for people.
    public var headline: String?
    /// What is happening.
    public var description: String?
    /// What to do.
    public var instruction: String?
    /// How bad.
    public var severity: AlertSeverity
    /// How soon.
    public var urgency: AlertUrgency
    /// How sure.
    public var certainty: AlertCertainty
    /// When the event begins, when said.
    public var onset: Date?
    /// When the alert takes effect (CAP: the sent time when not said).
    public var effective: Date?
    /// When the alert stops being valid, when said.
    public var expires: Date?
    /// When the event ends, when said.
    public var ends: Date?
    /// Where it applies.
    public var area: AlertArea
    /// The issuer's name for people, e.g. `NWS Upton NY`.
    public var senderName: String?
    /// The provider it came from (its configured id).
    public var source: String
    /// The language of its text (RFC 3066, e.g. `en-US`), when said.
    public var language: String?
    /// The issuer's own web page for it, when given.
    public var web: String?
    /// Why its text is not in the reader's language, when it is not (e.g. `in English: the issuer sent none in nb`).
    public var languageNote: String?
    /// The source's own labels for the event's kind, as sent (OpenWeatherMap's `tags`, e.g. `Wind`); empty when it gives none.
    public var tags: [String] = []
    /// The CAP parameter `awareness_level` as sent (MeteoAlarm's and MET Norway's colour, e.g. `2; yellow; Moderate`).
    public var awarenessLevel: String?
    /// The CAP parameter `awareness_type` as sent (e.g. `1; Wind`).
    public var awarenessType: String?
    /// How the alert was found to hold the place, when its source chose among a wider area's warnings (e.g. `its polygon`).
    public var placedBy: String?

    /// Creates an alert.
    public init(identity: AlertIdentity, messageType: AlertMessageType = .alert, references: [AlertIdentity] = [], event: String,
                headline: String? = nil, description: String? = nil, instruction: String? = nil, severity: AlertSeverity = .unknown,
                urgency: AlertUrgency = .unknown, certainty: AlertCertainty = .unknown, onset: Date? = nil, effective: Date? = nil,
                expires: Date? = nil, ends: Date? = nil, area: AlertArea = AlertArea(), senderName: String? = nil, source: String,
                language: String? = nil, web: String? = nil) {
        self.identity = identity
        self.messageType = messageType
        self.references = references
        self.event = event
        self.headline = headline
        self.description = description
        self.instruction = instruction
        self.severity = severity
        self.urgency = urgency
        self.certainty = certainty
        self.onset = onset
        self.effective = effective
        self.expires = expires
        self.ends = ends
        self.area = area
        self.senderName = senderName
        self.source = source
        self.language = language
        self.web = web
    }

    /// When it starts to matter: onset, else effective, else sent.
    public var start: Date? { onset ?? effective ?? identity.sent }

    /// When the event ends as its issuer says: `ends`, else `expires`; nil when neither is said. The same event from two
    /// sources is told by this period (a message may expire long before its event ends, and be renewed).
    public var eventEnd: Date? { ends ?? expires }

    /// When it stops: the earlier of `ends` and `expires` (an alert past either is gone); nil when neither is said.
    public var end: Date? {
        switch (ends, expires) {
        case (let ends?, let expires?): min(ends, expires)
        case (let ends?, nil): ends
        case (nil, let expires?): expires
        case (nil, nil): nil
        }
    }

    /// True when it has not ended at `now` (one with no end stays while its source lists it).
    public func isCurrent(at now: Date) -> Bool { end.map { now < $0 } ?? true }
}
