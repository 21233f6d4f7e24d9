import FoundationEssentials
import IsobarCore
import IsobarRender

/// `isobar alerts` for people: the place, then each alert in force (most severe first) with its text as sent, then the
/// sources that were not asked or failed, the replay note and the credits.
struct AlertsTable {
    /// The terminal's width, when known.
    var width: Int?

    /// The whole output.
    func text(_ report: AlertsReport) -> String {
        let offset = report.utcOffsetSeconds
        let place = report.place
        let coordinate = "\(JSONOutput.format(place.coordinate.latitude)), \(JSONOutput.format(place.coordinate.longitude))"
        let zone = [place.timeZoneIdentifier, "UTC\(CivilTime.offsetText(offset))"].compactMap { $0 }.joined(separator: " ")
        var lines = [[place.name, place.adminArea, place.countryCode].compactMap { $0 }.joined(separator: ", ") + "  \(coordinate)  \(zone)", ""]
        let asked = report.sources.filter { $0.answer != .notAsked && $0.answer != .notRecorded }
        if report.active.isEmpty {
            if report.nothingRecorded {
                lines.append("No warnings known (no recording of \(place.name))")
            } else {
                let from = asked.isEmpty ? "no alert source covers \(place.name)" : "from " + asked.map(\.name).joined(separator: ", ")
                lines.append("No warnings in force (\(from))")
            }
        } else {
            lines.append(report.active.count == 1 ? "1 warning in force" : "\(report.active.count) warnings in force")
        }
        for active in report.active {
            let alert = active.alert
            lines.append(AlertText.summary(active, utcOffsetSeconds: offset, name: report.name(of:)))
            if let headline = alert.headline { lines.append("  " + headline) }
            var timing = "  " + AlertText.axes(alert).capitalizedFirst
            if let start = alert.start { timing += "; from " + AlertText.localTime(start, utcOffsetSeconds: offset) }
            timing += AlertText.messageExpiry(alert, utcOffsetSeconds: offset)
            lines.append(timing)
            if let area = alert.area.description { lines.append("  Area: " + area) }
            if !alert.tags.isEmpty { lines.append("  Tags: " + alert.tags.joined(separator: ", ")) }
            if let awareness = AlertText.awareness(alert) { lines.append("  " + awareness) }
            if let placedBy = alert.placedBy { lines.append("  Placed here by " + placedBy) }
            for text in [alert.description, alert.instruction].compactMap({ $0 }) {
                lines += text.split(separator: "\n", omittingEmptySubsequences: true).map { "  " + $0 }
            }
            if let sender = alert.senderName { lines.append("  Issued by " + sender) }
            if let note = alert.languageNote { lines.append("  Text " + note) }
        }
        lines += Self.sourceNotes(report)
        return lines.flatMap { line in width.map { TextWrap.wrap(line, width: $0) } ?? [line] }.joined(separator: "\n") + "\n"
    }

    /// Sources not asked or that failed, the replay note and the credits, one line each.
    static func sourceNotes(_ report: AlertsReport) -> [String] {
        var lines: [String] = []
        for source in report.sources {
            switch source.answer {
            case .notAsked: lines.append("\(source.name): not asked — \(report.place.name) is outside its coverage")
            case .notRecorded: lines.append("\(source.name): not recorded — no recording of \(report.place.name)")
            case .failed(let error): lines.append("\(source.name): no answer — \(error.message)")
            case .stale(let asOf, let error):
                lines.append("\(source.name): as of \(AlertText.asOf(asOf, report)); could not refresh — \(error.message)")
            case .answered: break
            }
            lines += source.notes.map { "\(source.name): \($0)" }
        }
        if let replays = ReplayNotice.clauses(report.replays) { lines.append("Replayed data, not live: " + replays) }
        if !report.credits.isEmpty { lines.append("Data: " + report.credits.joined(separator: "; ")) }
        return lines
    }
}
