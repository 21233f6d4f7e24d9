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
        /// It could not answer.
        case failed(ProviderError)
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
    }

    /// The place, with its UTC offset at `judgedAt`.
    var place: Place
    /// The instant the alerts were judged at: now, or the recording's time when every answer was replayed.
    var judgedAt: Date
    /// The alerts in force, in display order.
    var active: [ActiveAlert]
    /// Every configured alert source, in configuration order.
    var sources: [Source]

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
            guard case .answered = source.answer, let credit = source.attribution, !credits.contains(credit) else { continue }
            credits.append(credit)
        }
        return credits
    }

    /// True when some alert in force is at least as severe as `threshold`.
    func hasAlert(atLeast threshold: AlertSeverity) -> Bool { active.contains { $0.alert.severity >= threshold } }
}
