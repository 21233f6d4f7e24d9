import FoundationEssentials

/// Something a reader should know about one provider's answer, as the engine found it; renderers word it.
public enum ResultNote: Sendable, Equatable {
    /// Its current conditions were observed `ageSeconds` before the reference time; they were left out of the consensus.
    case staleCurrent(observedAt: Date, ageSeconds: Double)
    /// Its forecast ends before the place's current day.
    case forecastEnded(at: Date)
    /// A value was left out of its answer: impossible, in an unknown unit or of the wrong type.
    case droppedValue(ValueWarning)
    /// The provider said something about its answer a reader should know, e.g. that its product version is deprecated.
    case providerNotice(String)

    /// Snake-case code written in JSON lines.
    public var code: String {
        switch self {
        case .staleCurrent: "stale_current"
        case .forecastEnded: "forecast_ended"
        case .droppedValue: "dropped_value"
        case .providerNotice: "provider_notice"
        }
    }

    /// Current conditions older than this are flagged and left out of the consensus.
    public static let staleCurrentSeconds = 3.0 * 3600

    /// The notes for `report`, judged at `reference` (now, or the recording time of replays); `forecastEnded` is where
    /// its forecast ended, when that is before the place's current local day.
    public static func notes(for report: WeatherReport, reference: Date, forecastEnded: Date?) -> [ResultNote] {
        var notes: [ResultNote] = report.warnings.map(ResultNote.droppedValue) + report.notices.map(ResultNote.providerNotice)
        if let current = report.current {
            let age = reference.timeIntervalSince(current.time)
            if age > staleCurrentSeconds { notes.append(.staleCurrent(observedAt: current.time, ageSeconds: age)) }
        }
        if let forecastEnded { notes.append(.forecastEnded(at: forecastEnded)) }
        return notes
    }
}
