import FoundationEssentials
import IsobarCore

/// Result notes in words, the same in tables and JSON lines.
public enum ResultNoteText: Sendable {
    /// One sentence, times in the place's local time when its offset is known.
    public static func sentence(_ note: ResultNote, place: Place) -> String {
        let offset = place.utcOffsetSeconds ?? 0
        switch note {
        case .staleCurrent(let observedAt, let age):
            return "its current conditions were observed at \(CivilTime.clock(observedAt, utcOffsetSeconds: offset)), "
                + "\(TableRenderer.ageText(age)) earlier; they are shown but left out of the consensus"
        case .forecastEnded(let end):
            return "its forecast ends at \(LocalDate(end, utcOffsetSeconds: offset)) \(CivilTime.clock(end, utcOffsetSeconds: offset)), "
                + "before today"
        case .droppedValue(let warning):
            return "\(warning.field) \(warning.value) at \(warning.path) was left out (\(warning.reason))"
        case .providerNotice(let text):
            return text
        }
    }
}
