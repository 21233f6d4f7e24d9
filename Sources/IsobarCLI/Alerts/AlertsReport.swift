import FoundationEssentials
import IsobarCore
import IsobarRender

/// What `isobar alerts` found for one place: the alerts in force and how each source answered.
struct AlertsReport: Sendable {
    /// How one alert source answered.
    enum Answer: Sendable, Equatable {
        /// It answered; `recordedAt` when the answer was replayed from a recording.
        case answered(fetchedAt: Date, recordedAt: Date?)
        /// It was not asked: the place lies outside its coverage.
        case notAsked
        /// It is replayed, and its recording holds no answer for the place (the demo's recordings cover some places only).
        case notRecorded
        /// It could not answer.
        case failed(ProviderError)
        /// It could not answer now; its answer kept from `asOf` is shown, and said to be.
        case stale(asOf: Date, ProviderError)
    }

    /// One alert source and its answer.
    struct Source: Sendable, Equatable {
        /// Its configured id.
        var id: String
        /// Its name for people.
        var name: String
        /// The credit its terms ask for, when any.
        var attribution: String?
        /// How it answered.
        var answer: Answer
        /// What it noted of its answer (e.g. a warning it left out because it could not be read).
        var notes: [String] = []
    }

    /// The place, with its UTC offset at `judgedAt`.
    var place: Place
    /// The instant the alerts were judged at: now, or the recording's time when every answer was replayed.
    var judgedAt: Date
    /// The alerts in force, in display order.
    var active: [ActiveAlert]
    /// Every configured alert source, in configuration order.
    var sources: [Source]

    /// True when no source was asked and some replayed one has no recording of the place: its warnings are unknown, not none.
    var nothingRecorded: Bool {
        sources.allSatisfy { $0.answer == .notAsked || $0.answer == .notRecorded } && sources.contains { $0.answer == .notRecorded }
    }

    /// The name of the source with id `id`, or the id itself.
    func name(of id: String) -> String { sources.first { $0.id == id }?.name ?? id }

    /// The place's UTC offset for local times (0 when unknown).
    var utcOffsetSeconds: Int { place.utcOffsetSeconds ?? 0 }

    /// The sources that answered from recordings, with the instant recorded.
    var replays: [(name: String, recordedAt: Date)] {
        sources.compactMap { source in
            guard case .answered(_, let recordedAt?) = source.answer else { return nil }
            return (source.name, recordedAt)
        }
    }

    /// The credits of the sources that answered, once each.
    var credits: [String] {
        var credits: [String] = []
        for source in sources {
            guard source.answer.gaveAlerts, let credit = source.attribution, !credits.contains(credit) else { continue }
            credits.append(credit)
        }
        return credits
    }

    /// The answer behind alerts of source `id`: when it was fetched (recorded, for a replay), and whether it is stale.
    func asOf(_ id: String) -> (instant: Date, stale: Bool)? {
        switch sources.first(where: { $0.id == id })?.answer {
        case .answered(let fetchedAt, let recordedAt): (recordedAt ?? fetchedAt, false)
        case .stale(let asOf, _): (asOf, true)
        default: nil
        }
    }

    /// The sources whose kept answer is shown because a refresh failed: name, as of when, and why.
    var staleSources: [(name: String, asOf: Date, error: ProviderError)] {
        sources.compactMap { source in
            guard case .stale(let asOf, let error) = source.answer else { return nil }
            return (source.name, asOf, error)
        }
    }

    /// True when some alert in force is at least as severe as `threshold`.
    func hasAlert(atLeast threshold: AlertSeverity) -> Bool { active.contains { $0.alert.severity >= threshold } }
}

extension AlertsReport.Answer {
    /// True when alerts of the source are shown: it answered, or its kept answer stands in.
    var gaveAlerts: Bool {
        switch self {
        case .answered, .stale: true
        case .notAsked, .notRecorded, .failed: false
        }
    }
}
