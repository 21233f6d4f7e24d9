import FoundationEssentials
import IsobarCore

/// An alert source's answer as kept in the cache: its alerts (every field, the text as sent) and its notices, as JSON.
public enum AlertCodec {
    /// The version written; an entry of another version is read as absent.
    static let version = 1

    /// The JSON text of `alerts` and `notices`.
    public static func encode(_ alerts: [Alert], notices: [String]) -> String {
        var json = JSONOutputBuffer(capacity: 1024)
        json.beginObject()
        json.key("v")
        json.integer(version)
        json.key("notices")
        json.strings(notices)
        json.key("alerts")
        json.beginArray()
        for alert in alerts { encode(alert, into: &json) }
        json.endArray()
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The alerts and notices of a kept answer; nil when it cannot be read (it is then asked for again).
    public static func decode(_ text: String) -> (alerts: [Alert], notices: [String])? {
        guard let root = try? JSONDocument(parsing: text).rootValue, (try? root.int("v")) == version,
              let notices = try? root.member("notices").elements().map({ try $0.string() }),
              let alerts = try? root.member("alerts").elements().map(decode) else { return nil }
        return (alerts, notices)
    }

    private static func encode(_ alert: Alert, into json: inout JSONOutputBuffer) {
        json.beginObject()
        identity(alert.identity, into: &json)
        json.key("type")
        json.string(alert.messageType.rawValue)
        json.key("references")
        json.beginArray()
        for reference in alert.references {
            json.beginObject()
            identity(reference, into: &json)
            json.endObject()
        }
        json.endArray()
        let texts: [(String, String?)] = [
            ("event", alert.event), ("headline", alert.headline), ("description", alert.description), ("instruction", alert.instruction),
            ("severity", alert.severity.rawValue), ("urgency", alert.urgency.rawValue), ("certainty", alert.certainty.rawValue),
            ("area", alert.area.description), ("sender_name", alert.senderName), ("source", alert.source), ("language", alert.language),
            ("web", alert.web), ("language_note", alert.languageNote), ("awareness_level", alert.awarenessLevel),
            ("awareness_type", alert.awarenessType), ("placed_by", alert.placedBy),
        ]
        for (key, value) in texts {
            json.key(text: key)
            json.string(value)
        }
        for (key, instant) in [("onset", alert.onset), ("effective", alert.effective), ("expires", alert.expires), ("ends", alert.ends)] {
            json.key(text: key)
            time(instant, into: &json)
        }
        json.key("codes")
        json.strings(alert.area.codes)
        json.key("tags")
        json.strings(alert.tags)
        json.key("polygons")
        json.beginArray()
        for ring in alert.area.polygons {
            // Exact decimal text, so that a kept polygon is the one sent.
            json.strings(ring.map { "\($0.latitude),\($0.longitude)" })
        }
        json.endArray()
        json.endObject()
    }

    private static func decode(_ value: JSONValue) throws -> Alert {
        var alert = Alert(identity: try identity(value), event: try value.string("event"), source: try value.string("source"))
        guard let type = AlertMessageType(cap: try value.string("type")) else { throw CAPError("unknown message type") }
        alert.messageType = type
        alert.references = try value.member("references").elements().map(identity)
        alert.headline = try value.optionalString("headline")
        alert.description = try value.optionalString("description")
        alert.instruction = try value.optionalString("instruction")
        alert.severity = AlertSeverity(cap: try value.string("severity"))
        alert.urgency = AlertUrgency(cap: try value.string("urgency"))
        alert.certainty = AlertCertainty(cap: try value.string("certainty"))
        alert.senderName = try value.optionalString("sender_name")
        alert.language = try value.optionalString("language")
        alert.web = try value.optionalString("web")
        alert.languageNote = try value.optionalString("language_note")
        // Kept by earlier versions without them: absent reads as not said.
        alert.awarenessLevel = try value.optionalString("awareness_level")
        alert.awarenessType = try value.optionalString("awareness_type")
        alert.placedBy = try value.optionalString("placed_by")
        alert.onset = try time(value, "onset")
        alert.effective = try time(value, "effective")
        alert.expires = try time(value, "expires")
        alert.ends = try time(value, "ends")
        let polygons = try value.member("polygons").elements().map { ring in
            try ring.elements().map { pair -> Coordinate in
                let parts = try pair.string().split(separator: ",")
                guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                      let point = Coordinate(latitude: latitude, longitude: longitude) else { throw CAPError("bad point") }
                return point
            }
        }
        alert.area = AlertArea(description: try value.optionalString("area"), polygons: polygons,
                               codes: try value.member("codes").elements().map { try $0.string() })
        // Entries kept before tags were kept have none.
        alert.tags = try value.nonNullMember("tags")?.elements().map { try $0.string() } ?? []
        return alert
    }

    private static func identity(_ identity: AlertIdentity, into json: inout JSONOutputBuffer) {
        json.key("sender")
        json.string(identity.sender)
        json.key("identifier")
        json.string(identity.identifier)
        json.key("sent")
        time(identity.sent, into: &json)
    }

    private static func identity(_ value: JSONValue) throws -> AlertIdentity {
        AlertIdentity(sender: try value.string("sender"), identifier: try value.string("identifier"), sent: try time(value, "sent"))
    }

    private static func time(_ instant: Date?, into json: inout JSONOutputBuffer) {
        if let instant { json.number(instant.timeIntervalSince1970) } else { json.null() }
    }

    private static func time(_ value: JSONValue, _ key: String) throws -> Date? {
        try value.optionalDouble(key).map { Date(timeIntervalSince1970: $0) }
    }
}
