import FoundationEssentials
import IsobarCore
import IsobarRender

/// The `alert` JSON line (schema 1, see docs/json-lines.md): one alert in force at one place, as its source sent it.
struct AlertLines {
    /// The query the place was found by, echoed in `place.query`.
    var query: String
    /// The line being written.
    private var json = JSONOutputBuffer(capacity: 4096)

    /// A writer echoing `query`.
    init(query: String) { self.query = query }

    /// One line per alert in force, then (unless `failures` is false) one `provider_error` line per source that failed or
    /// was not asked (status `skipped`, reason `outside_coverage`, as the weather commands write it), each ending in a line feed.
    mutating func lines(_ report: AlertsReport, label: LineLabel? = nil, failures: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = []
        for active in report.active {
            bytes += line(active, report: report, label: label)
        }
        for source in report.sources where failures {
            switch source.answer {
            case .failed(let error), .stale(_, let error): bytes += errorLine(source, error, report: report, label: label)
            case .notAsked:
                let error = ProviderError(.unsupported, "\(source.name) has no data for \(report.place.label) (outside its coverage)",
                                          reason: .outsideCoverage)
                bytes += errorLine(source, error, report: report, label: label)
            case .notRecorded:
                let error = ProviderError(.unavailable, "\(source.name): no recording of \(report.place.label)", reason: .notRecorded)
                bytes += errorLine(source, error, report: report, label: label)
            case .answered: break
            }
        }
        return bytes
    }

    /// The `alert` line of one alert.
    mutating func line(_ active: ActiveAlert, report: AlertsReport, label: LineLabel?) -> [UInt8] {
        let alert = active.alert
        let offset = report.utcOffsetSeconds
        begin("alert", report, label)
        json.key("provider")
        json.string(alert.source)
        json.key("provider_name")
        json.string(report.name(of: alert.source))
        json.key("providers")
        json.strings(active.sources)
        json.key("identifier")
        json.string(alert.identity.identifier)
        json.key("sender")
        json.string(alert.identity.sender)
        json.key("sent")
        time(alert.identity.sent, offset)
        json.key("message_type")
        json.string(alert.messageType.rawValue)
        json.key("references")
        json.beginArray()
        for reference in alert.references {
            json.beginObject()
            json.key("sender")
            json.string(reference.sender)
            json.key("identifier")
            json.string(reference.identifier)
            json.key("sent")
            time(reference.sent, offset)
            json.endObject()
        }
        json.endArray()
        json.key("event")
        json.string(alert.event)
        json.key("headline")
        json.string(alert.headline)
        json.key("description")
        json.string(alert.description)
        json.key("instruction")
        json.string(alert.instruction)
        json.key("severity")
        json.string(alert.severity.rawValue)
        json.key("urgency")
        json.string(alert.urgency.rawValue)
        json.key("certainty")
        json.string(alert.certainty.rawValue)
        for (key, instant) in [("onset", alert.onset), ("effective", alert.effective), ("expires", alert.expires), ("ends", alert.ends)] {
            json.key(text: key)
            time(instant, offset)
        }
        json.key("area")
        json.beginObject()
        json.key("description")
        json.string(alert.area.description)
        json.key("codes")
        json.strings(alert.area.codes)
        json.key("polygons")
        json.integer(alert.area.polygons.count)
        json.endObject()
        json.key("sender_name")
        json.string(alert.senderName)
        json.key("language")
        json.string(alert.language)
        json.key("web")
        json.string(alert.web)
        if !alert.tags.isEmpty {
            // Only from a source that labels its warnings (OpenWeatherMap): absent, not empty, for the others.
            json.key("tags")
            json.strings(alert.tags)
        }
        json.key("awareness_level")
        json.string(alert.awarenessLevel)
        json.key("awareness_type")
        json.string(alert.awarenessType)
        json.key("placed_by")
        json.string(alert.placedBy)
        let asOf = report.asOf(alert.source)
        json.key("as_of")
        time(asOf?.instant, offset)
        json.key("stale")
        json.bool(asOf?.stale ?? false)
        json.endObject()
        json.endLine()
        return json.bytes
    }

    /// The `provider_error` line of a source that could not answer.
    private mutating func errorLine(_ source: AlertsReport.Source, _ error: ProviderError, report: AlertsReport, label: LineLabel?) -> [UInt8] {
        begin("provider_error", report, label)
        json.key("provider")
        json.string(source.id)
        json.key("provider_name")
        json.string(source.name)
        json.key("status")
        json.string(error.reason == .outsideCoverage || error.reason == .notRecorded ? "skipped" : "error")
        json.key("error")
        json.beginObject()
        json.key("code")
        json.string(error.codeName)
        json.key("message")
        json.string(error.message)
        if let reason = error.reason {
            json.key("reason")
            json.string(reason.rawValue)
        }
        json.endObject()
        json.endObject()
        json.endLine()
        return json.bytes
    }

    /// `{"schema":1,"type":…,` then the batch label and the place, as every weather line has them.
    private mutating func begin(_ type: String, _ report: AlertsReport, _ label: LineLabel?) {
        json.removeAll()
        json.beginLine(type, label: label)
        json.placeMember(report.place, query: label?.query ?? query, runnersUp: [])
    }

    private mutating func time(_ instant: Date?, _ offset: Int) {
        if let instant { json.isoTime(instant, utcOffsetSeconds: offset) } else { json.null() }
    }
}
