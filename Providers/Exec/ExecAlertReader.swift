import FoundationEssentials
import IsobarCore

/// Reads the `alerts` member of a program's report strictly: CAP fields by their protocol names, the CAP values of
/// `message_type`, `severity`, `urgency` and `certainty` exactly, ISO-8601 instants with a zone, known fields only.
struct ExecAlertReader {
    /// The provider whose reports these are (each alert's source).
    let providerID: String

    static let alertKeys: Set<String> = ["identifier", "sender", "sent", "message_type", "references", "event", "headline", "description",
                                         "instruction", "severity", "urgency", "certainty", "onset", "effective", "expires", "ends", "area",
                                         "sender_name", "language", "web"]
    static let referenceKeys: Set<String> = ["sender", "identifier", "sent"]
    static let areaKeys: Set<String> = ["description", "codes", "polygons"]

    /// The alerts of `value`, an array.
    func alerts(_ value: JSONValue) throws -> [Alert] {
        try value.elements().map { try alert($0) }
    }

    private func alert(_ value: JSONValue) throws -> Alert {
        try refuseUnknown(value, Self.alertKeys)
        let identifier = try value.member("identifier")
        guard !(try identifier.string()).isEmpty else { throw fault(identifier, "must not be empty") }
        var alert = Alert(identity: AlertIdentity(sender: try value.optionalString("sender") ?? "", identifier: try identifier.string(),
                                                  sent: try instant(value, "sent")),
                          messageType: try choice(value, "message_type", AlertMessageType.allCases.map(\.rawValue), { AlertMessageType(cap: $0) }) ?? .alert,
                          event: try value.string("event"), source: providerID)
        alert.references = try (value.nonNullMember("references")?.elements() ?? []).map { reference in
            try refuseUnknown(reference, Self.referenceKeys)
            return AlertIdentity(sender: try reference.optionalString("sender") ?? "", identifier: try reference.string("identifier"),
                                 sent: try instant(reference, "sent"))
        }
        alert.headline = try value.optionalString("headline")
        alert.description = try value.optionalString("description")
        alert.instruction = try value.optionalString("instruction")
        alert.severity = try choice(value, "severity", AlertSeverity.allCases.map(\.rawValue), { AlertSeverity(cap: $0) }) ?? .unknown
        alert.urgency = try choice(value, "urgency", AlertUrgency.allCases.map(\.rawValue), { AlertUrgency(cap: $0) }) ?? .unknown
        alert.certainty = try choice(value, "certainty", AlertCertainty.allCases.map(\.rawValue), { AlertCertainty(cap: $0) }) ?? .unknown
        alert.onset = try instant(value, "onset")
        alert.effective = try instant(value, "effective")
        alert.expires = try instant(value, "expires")
        alert.ends = try instant(value, "ends")
        alert.senderName = try value.optionalString("sender_name")
        alert.language = try value.optionalString("language")
        alert.web = try value.optionalString("web")
        if let area = try value.nonNullMember("area") { alert.area = try self.area(area) }
        return alert
    }

    /// `{"description", "codes": ["UGC:NYZ072"], "polygons": [[[lat, lon], …], …]}`.
    private func area(_ value: JSONValue) throws -> AlertArea {
        try refuseUnknown(value, Self.areaKeys)
        let codes = try (value.nonNullMember("codes")?.elements() ?? []).map { try $0.string() }
        let polygons = try (value.nonNullMember("polygons")?.elements() ?? []).map { ring in
            let corners = try ring.elements().map { corner in
                let pair = try corner.numbersOrNulls()
                guard pair.count == 2, let latitude = pair[0], let longitude = pair[1],
                      let coordinate = Coordinate(latitude: latitude, longitude: longitude) else {
                    throw fault(corner, "must be [latitude, longitude] in degrees")
                }
                return coordinate
            }
            guard corners.count >= 3 else { throw fault(ring, "a polygon needs at least 3 corners") }
            return corners
        }
        return AlertArea(description: try value.optionalString("description"), polygons: polygons, codes: codes)
    }

    private func choice<Value>(_ value: JSONValue, _ key: String, _ allowed: [String], _ make: (String?) -> Value?) throws -> Value? {
        guard let member = try value.nonNullMember(key) else { return nil }
        let text = try member.string()
        guard allowed.contains(text) else { throw fault(member, "\(member.shortText) is not one of \(allowed.joined(separator: ", "))") }
        return make(text)
    }

    private func instant(_ value: JSONValue, _ key: String) throws -> Date? {
        guard let member = try value.nonNullMember(key) else { return nil }
        guard let date = CivilTime.instant(iso: try member.string()) else {
            throw fault(member, "must be an ISO-8601 instant with a zone, such as 2026-11-28T09:00:00Z")
        }
        return date
    }

    private func refuseUnknown(_ value: JSONValue, _ known: Set<String>) throws {
        for (key, member) in try value.members() where !known.contains(key) {
            throw fault(member, "is not a field of the protocol's alerts")
        }
    }

    private func fault(_ value: JSONValue, _ problem: String) -> ProviderError {
        ProviderError(.badResponse(path: value.path.description), "\(providerID): the program's report is wrong at \(value.path): \(problem)")
    }
}
