import FoundationEssentials
import IsobarCore
import IsobarRender

/// `isobar alerts --plain`: sentences for screen readers, warnings first, the issuer's text as sent.
struct AlertsPlain {
    /// The whole output.
    func text(_ report: AlertsReport) -> String {
        let offset = report.utcOffsetSeconds
        var lines: [String] = []
        let count = report.active.count
        if count == 0 && report.nothingRecorded {
            lines.append("No warnings are known for \(report.place.name): no recording of it.")
        } else {
            lines.append(count == 0 ? "No warnings are in force for \(report.place.name)."
                         : "\(count) warning\(count == 1 ? " is" : "s are") in force for \(report.place.name).")
        }
        for active in report.active {
            lines.append(Self.sentence(active, utcOffsetSeconds: offset, name: report.name(of:)))
            let alert = active.alert
            if let headline = alert.headline { lines.append(Self.ending(headline)) }
            if let area = alert.area.description { lines.append("Area: " + Self.ending(area)) }
            if !alert.tags.isEmpty { lines.append("Tags: " + Self.ending(alert.tags.joined(separator: ", "))) }
            if let awareness = AlertText.awareness(alert) { lines.append(awareness + ".") }
            if let placedBy = alert.placedBy { lines.append("Placed here by " + placedBy + ".") }
            for text in [alert.description, alert.instruction].compactMap({ $0 }) {
                lines += text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            }
            if let note = alert.languageNote { lines.append("Text " + note + ".") }
        }
        lines += AlertsTable.sourceNotes(report).map { $0.replacing(" — ", with: ": ") }.map(Self.ending)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `Severe warning from NWS: Winter Storm Warning, until Sun Nov 29 18:00; urgency expected, certainty likely.`
    static func sentence(_ active: ActiveAlert, utcOffsetSeconds offset: Int, name: (String) -> String) -> String {
        let alert = active.alert
        let kind = alert.severity == .unknown ? "Warning of unknown severity" : "\(alert.severity.rawValue) warning"
        return "\(kind) from \(PlainWords.list(active.sources.map(name))): \(alert.event), \(AlertText.until(alert, utcOffsetSeconds: offset)); "
            + "urgency \(alert.urgency.rawValue.lowercased()), certainty \(alert.certainty.rawValue.lowercased())"
            + AlertText.messageExpiry(alert, utcOffsetSeconds: offset) + "."
    }

    /// The text with a full stop unless it ends with punctuation.
    static func ending(_ text: String) -> String {
        guard let last = text.last, !".!?:".contains(last) else { return text }
        return text + "."
    }
}
