import FoundationEssentials
import IsobarCore

/// Turns an NWS `/alerts/active` answer (a GeoJSON FeatureCollection whose properties follow CAP 1.2) into alerts.
public struct NWSAlertsDecoder: Sendable {
    /// Name used in error messages.
    public var providerName: String
    /// The provider id each alert is marked with.
    public var source: String

    /// Creates a decoder.
    public init(providerName: String = "NWS", source: String = "nws-alerts") {
        self.providerName = providerName
        self.source = source
    }

    /// Decodes a response, mapping failure statuses to errors; features that are not actual warnings (tests, exercises,
    /// acknowledgements) are left out.
    public func decode(_ response: HTTPResponse, now: Date) throws(ProviderError) -> [Alert] { try read(response, now: now).alerts }

    /// Decodes a response as `decode` does; a feature that cannot be read (a missing field, a time that is not one) is left
    /// out with a notice naming it and why, and the others still count. A body that is not a FeatureCollection is an error.
    public func read(_ response: HTTPResponse, now: Date) throws(ProviderError) -> (alerts: [Alert], notices: [String]) {
        let body = try CheckedBody(response, provider: providerName, messageKey: "detail", now: now)
        let features = try ProviderError.decoding(provider: providerName) { try body.root().member("features").elements() }
        var alerts: [Alert] = []
        var notices: [String] = []
        for feature in features {
            do {
                if let alert = try alert(from: feature) { alerts.append(alert) }
            } catch {
                let name = (try? feature.member("properties").optionalString("event")).flatMap { $0 }.map { "a \($0)" } ?? "a warning"
                notices.append("left out \(name) that cannot be read (\(error))")
            }
        }
        return (alerts, notices)
    }

    private func alert(from feature: JSONValue) throws -> Alert? {
        let properties = try feature.member("properties")
        guard (try properties.optionalString("status") ?? "Actual") == "Actual",
              let type = AlertMessageType(cap: try properties.optionalString("messageType")) else { return nil }
        let sender = try properties.optionalString("sender") ?? ""
        var alert = Alert(identity: AlertIdentity(sender: sender, identifier: try properties.string("id"), sent: try time(properties, "sent")),
                          messageType: type, event: try properties.string("event"), source: source, language: "en-US")
        alert.references = try (properties.nonNullMember("references")?.elements() ?? []).compactMap { reference in
            guard let identifier = try reference.optionalString("identifier") else { return nil }
            return AlertIdentity(sender: try reference.optionalString("sender") ?? "", identifier: identifier, sent: try time(reference, "sent"))
        }
        alert.headline = try properties.optionalString("headline")
        alert.description = try properties.optionalString("description")
        alert.instruction = try properties.optionalString("instruction")
        alert.severity = AlertSeverity(cap: try properties.optionalString("severity"))
        alert.urgency = AlertUrgency(cap: try properties.optionalString("urgency"))
        alert.certainty = AlertCertainty(cap: try properties.optionalString("certainty"))
        alert.onset = try time(properties, "onset")
        alert.effective = try time(properties, "effective")
        alert.expires = try time(properties, "expires")
        alert.ends = try time(properties, "ends")
        alert.senderName = try properties.optionalString("senderName")
        let codes = try properties.nonNullMember("geocode")?.nonNullMember("UGC")?.elements().map { "UGC:" + (try $0.string()) } ?? []
        alert.area = AlertArea(description: try properties.optionalString("areaDesc"), polygons: try polygons(feature.nonNullMember("geometry")),
                               codes: codes)
        return alert
    }

    /// An ISO-8601 member; a time that cannot be read is an error naming its path.
    private func time(_ object: JSONValue, _ key: String) throws -> Date? {
        guard let value = try object.nonNullMember(key) else { return nil }
        guard let instant = CivilTime.instant(iso: try value.string()) else {
            throw JSONError(.typeMismatch(expected: "an ISO-8601 time", found: "other text"), path: value.path)
        }
        return instant
    }

    /// The outer rings of a GeoJSON Polygon or MultiPolygon ([longitude, latitude] pairs); none for a null geometry.
    private func polygons(_ geometry: JSONValue?) throws -> [[Coordinate]] {
        guard let geometry else { return [] }
        let coordinates = try geometry.member("coordinates")
        switch try geometry.string("type") {
        case "Polygon": return [try ring(coordinates.elements().first)]
        case "MultiPolygon": return try coordinates.elements().map { try ring($0.elements().first) }
        default: return []
        }
    }

    private func ring(_ value: JSONValue?) throws -> [Coordinate] {
        try (value?.elements() ?? []).compactMap { pair in
            let numbers = try pair.numbersOrNulls()
            guard numbers.count >= 2, let longitude = numbers[0], let latitude = numbers[1] else { return nil }
            return Coordinate(latitude: latitude, longitude: longitude)
        }
    }
}
