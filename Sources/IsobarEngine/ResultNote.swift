import FoundationEssentials
import IsobarCore

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

    /// The notes for `report`, judged at `reference` (now, or the recording time of replays) in `calendar`.
    public static func notes(for report: WeatherReport, reference: Date, calendar: LocalCalendar) -> [ResultNote] {
        var notes: [ResultNote] = report.warnings.map(ResultNote.droppedValue) + report.notices.map(ResultNote.providerNotice)
        if let current = report.current {
            let age = reference.timeIntervalSince(current.time)
            if age > staleCurrentSeconds { notes.append(.staleCurrent(observedAt: current.time, ageSeconds: age)) }
        }
        let lastStep = report.hourly.last?.time
        let lastDay = report.daily.last.map { calendar.interval(of: $0.date).upperBound }
        if let end = [lastStep, lastDay].compactMap({ $0 }).max(), end < calendar.interval(of: calendar.localDate(of: reference)).lowerBound {
            notes.append(.forecastEnded(at: end))
        }
        return notes
    }
}
