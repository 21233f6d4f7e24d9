import FoundationEssentials
import IsobarCore

/// Turns the `alerts` of a One Call 3.0 answer into alerts. OpenWeatherMap passes national services' warnings through with
/// `sender_name`, `event`, `start`, `end`, `description` and `tags` only: no CAP identity, no message type, no severity,
/// urgency or certainty, no area, no language. Nothing more is made up: the axes stay unknown, and the identity is built
/// from the sender, the event and the start (see `identity(sender:event:start:)`).
public struct OpenWeatherMapAlertsDecoder: Sendable {
    /// Name used in error messages.
    public var providerName: String
    /// The provider id each alert is marked with.
    public var source: String

    /// Creates a decoder.
    public init(providerName: String = "OpenWeatherMap", source: String = "openweathermap-alerts") {
        self.providerName = providerName
        self.source = source
    }

    /// The one line said when the key has no One Call 3.0 subscription.
    public static let noSubscription = "your OpenWeatherMap key has no One Call 3.0 subscription: its warnings come with the "
        + "One Call by Call plan (openweathermap.org/price; a new subscription may take a while to activate)"

    /// The alerts of a response (none when it has no `alerts` member: OpenWeatherMap leaves it out when none is in force); an
    /// alert that cannot be read is left out with a notice naming it and why, the others still count. A failure status is an
    /// error; a 401 saying the key lacks the One Call subscription is the source being unavailable, said in one line.
    public func read(_ response: HTTPResponse, now: Date) throws(ProviderError) -> (alerts: [Alert], notices: [String]) {
        let body: CheckedBody
        do {
            body = try CheckedBody(response, provider: providerName, messageKey: "message", now: now)
        } catch {
            if response.status == 401, Self.lacksSubscription(response) { throw ProviderError(.unavailable, Self.noSubscription) }
            throw error
        }
        // A body that is not an object, or whose `alerts` is not a list, is an error naming its path.
        let listed = try ProviderError.decoding(provider: providerName) { try body.root().nonNullMember("alerts")?.elements() ?? [] }
        var alerts: [Alert] = []
        var notices: [String] = []
        for item in listed {
            do {
                alerts.append(try alert(from: item))
            } catch {
                let name = (try? item.optionalString("event")).flatMap { $0 }.map { "a \($0)" } ?? "a warning"
                notices.append("left out \(name) that cannot be read (\(error))")
            }
        }
        return (alerts, notices)
    }

    /// True when a 401's body is OpenWeatherMap's "One Call 3.0 requires a separate subscription" answer.
    static func lacksSubscription(_ response: HTTPResponse) -> Bool {
        guard let root = try? JSONDocument(parsing: response.body).rootValue,
              let message = (try? root.optionalString("message")).flatMap({ $0 })?.lowercased() else { return false }
        return message.contains("one call") && message.contains("subscription")
    }

    /// The identity OpenWeatherMap does not give, made of what it does: the sender's name as sender, and
    /// `EVENT@START` (start in UTC) as identifier; never sent.
    public static func identity(sender: String?, event: String, start: Date) -> AlertIdentity {
        AlertIdentity(sender: sender ?? "", identifier: event + "@" + CivilTime.iso(start, utcOffsetSeconds: 0))
    }

    private func alert(from item: JSONValue) throws -> Alert {
        let event = try item.string("event")
        let start = Date(timeIntervalSince1970: try item.double("start", in: PlausibleRange.unixSeconds))
        let end = try item.nonNullMember("end").map { _ in Date(timeIntervalSince1970: try item.double("end", in: PlausibleRange.unixSeconds)) }
        if let end, end < start {
            throw JSONError(.typeMismatch(expected: "an end after the start", found: "an earlier end"), path: try item.member("end").path)
        }
        // An empty name says nothing.
        let sender = try item.optionalString("sender_name").flatMap { $0.isEmpty ? nil : $0 }
        var alert = Alert(identity: Self.identity(sender: sender, event: event, start: start), event: event,
                          description: try item.optionalString("description"), onset: start, ends: end, senderName: sender, source: source)
        alert.tags = try item.nonNullMember("tags")?.elements().map { try $0.string() } ?? []
        return alert
    }
}
