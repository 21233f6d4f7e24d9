import FoundationEssentials
import IsobarCore

/// Checks every adapter must pass, for our adapters and third-party ones alike.
///
/// Run `check` with a transport that serves a recorded answer for `place`; it returns the problems found (empty when conformant).
public enum ProviderConformance {
    /// One broken rule.
    public struct Violation: Sendable, Equatable, CustomStringConvertible {
        /// The rule, e.g. `humidity in 0…100`.
        public let rule: String
        /// Where it broke.
        public let detail: String
        /// `rule: detail`.
        public var description: String { "\(rule): \(detail)" }
    }

    /// The rule that fetching the recorded answer succeeds; the rules after it need its report.
    public static let fetchRule = "fetch succeeds on a recorded answer"

    /// The rule that an HTTP 500 from the provider's server is its `unavailable` error.
    public static let http500Rule = "an HTTP 500 is an `unavailable` error"

    /// Every rule `check` applies, in the order it applies them (each `Violation.rule` is one of these).
    public static let rules: [String] = [
        "id is lower-case without spaces", "display name is set", "declares at least one kind of data", "step hours in 1…16",
        fetchRule, "report names its provider", "report echoes the place asked for",
        "declared current conditions are given", "declared steps are given", "declared days are given", "UTC offset within ±14 h",
        "temperature in −95…65 °C", "apparent temperature in −110…80 °C", "humidity in 0…100 %", "pressure in 850…1090 hPa",
        "wind in 0…120 m/s", "gusts in 0…150 m/s", "direction in 0…360°", "cloud cover in 0…100 %", "visibility in 0…100 km",
        "precipitation in 0…500 mm", "precipitation chance in 0…100 %", "period hours positive", "fills only the quantities it declares",
        "steps in strictly increasing time order", "days in strictly increasing order", "daily minimum ≤ maximum", http500Rule,
        "errors never carry the key", "alerts only from providers that declare them", "alerts have an identifier and an event",
        "alerts name their provider as source", "alert times in order", "alert polygons have at least 3 corners",
    ]

    /// Fetches through `transport` and checks the report, and that `failingTransport` (which answers HTTP 500) gives a `ProviderError` without `secret`.
    /// Both fetches are given `deadline` on `time`'s clock, their requests refused or shortened to meet it, as in the engine (by
    /// default none: each call has its own limits).
    public static func check(_ provider: any WeatherProvider, place: Place, transport: any Transport,
                             secret: String? = nil, deadline: Date = .distantFuture, time: any TimeSource = SystemTime()) async -> [Violation] {
        var problems: [Violation] = []
        func fail(_ rule: String, _ detail: String) { problems.append(Violation(rule: rule, detail: detail)) }
        if provider.id.isEmpty || provider.id.contains(where: { $0 == " " || $0.isUppercase }) {
            fail("id is lower-case without spaces", "'\(provider.id)'")
        }
        if provider.displayName.isEmpty { fail("display name is set", "empty") }
        let capabilities = provider.capabilities
        if capabilities.kinds.isEmpty { fail("declares at least one kind of data", "none") }
        if !(1...16).contains(capabilities.stepHours) { fail("step hours in 1…16", "\(capabilities.stepHours)") }

        let report: WeatherReport
        do {
            report = try await provider.fetch(WeatherRequest(place: place, kinds: capabilities.kinds),
                                              context: .bounded(by: deadline, transport: transport, time: time))
        } catch {
            fail(fetchRule, error.message)
            return problems
        }
        if report.providerID != provider.id { fail("report names its provider", "'\(report.providerID)' ≠ '\(provider.id)'") }
        // An answer that carries several sources (Open-Meteo's models) is checked source by source, each named as declared.
        let expected = report.sourceReports.isEmpty ? [provider.id] : provider.sources.map(\.id)
        let answers = report.sourceReports.isEmpty ? [report] : report.sourceReports
        if answers.map(\.providerID) != expected {
            fail("report names its provider", "sources \(answers.map(\.providerID)) ≠ \(expected)")
        }
        for answer in answers {
            check(answer, place: place, capabilities: capabilities, named: answers.count > 1 ? answer.providerID + ": " : "", into: &problems)
        }
        let failing = FailingTransport()
        do {
            _ = try await provider.fetch(WeatherRequest(place: place, kinds: capabilities.kinds),
                                         context: .bounded(by: deadline, transport: failing, time: time))
            fail(http500Rule, "fetch succeeded")
        } catch {
            // What else it was is said whole: a deadline that came first is not the adapter's mapping of the 500.
            if case .unavailable = error.code {} else { fail(http500Rule, "\(error.codeName): \(error.message)") }
            if let secret, !secret.isEmpty, error.message.contains(secret) { fail("errors never carry the key", error.message) }
        }
        return problems
    }

    /// The rules about one answer's data; `named` (a source id and `: `, or empty) starts each detail.
    private static func check(_ report: WeatherReport, place: Place, capabilities: ProviderCapabilities, named: String,
                              into problems: inout [Violation]) {
        func fail(_ rule: String, _ detail: String) { problems.append(Violation(rule: rule, detail: named + detail)) }
        if report.place != place { fail("report echoes the place asked for", report.place.label) }
        if capabilities.kinds.contains(.current) && report.current == nil { fail("declared current conditions are given", "none") }
        if capabilities.kinds.contains(.hourly) && report.hourly.isEmpty { fail("declared steps are given", "none") }
        // Days may come from the steps: Isobar computes them for a provider that gives none of its own.
        if capabilities.kinds.contains(.daily) && report.daily.isEmpty && report.hourly.isEmpty {
            fail("declared days are given", "no days, and no steps to compute them from")
        }
        if let offset = report.utcOffsetSeconds, !(-14 * 3600...14 * 3600).contains(offset) {
            fail("UTC offset within ±14 h", "\(offset)")
        }
        let samples = (report.current.map { [$0] } ?? []) + report.hourly
        for (index, sample) in samples.enumerated() {
            let label = named + (index == 0 && report.current != nil ? "current" : "step at \(CivilTime.iso(sample.time, utcOffsetSeconds: 0))")
            checkRange(sample.temperatureC, -95...65, "temperature in −95…65 °C", label, &problems)
            checkRange(sample.apparentTemperatureC, -110...80, "apparent temperature in −110…80 °C", label, &problems)
            checkRange(sample.humidityPercent, 0...100, "humidity in 0…100 %", label, &problems)
            checkRange(sample.pressureHPa, 850...1090, "pressure in 850…1090 hPa", label, &problems)
            checkRange(sample.windSpeedMS, 0...120, "wind in 0…120 m/s", label, &problems)
            checkRange(sample.windGustMS, 0...150, "gusts in 0…150 m/s", label, &problems)
            checkRange(sample.windDirectionDeg, 0...360, "direction in 0…360°", label, &problems)
            checkRange(sample.cloudCoverPercent, 0...100, "cloud cover in 0…100 %", label, &problems)
            checkRange(sample.visibilityM, 0...100_000, "visibility in 0…100 km", label, &problems)
            checkRange(sample.precipitationMM, 0...500, "precipitation in 0…500 mm", label, &problems)
            checkRange(sample.precipitationProbabilityPercent, 0...100, "precipitation chance in 0…100 %", label, &problems)
            if sample.periodHours <= 0 { fail("period hours positive", label) }
        }
        let undeclared = Quantity.allCases.filter { quantity in
            !capabilities.quantities.contains(quantity) && samples.contains { $0[quantity] != nil }
        }
        if !undeclared.isEmpty { fail("fills only the quantities it declares", undeclared.map(\.rawValue).joined(separator: ", ")) }
        if zip(report.hourly, report.hourly.dropFirst()).contains(where: { $0.time >= $1.time }) {
            fail("steps in strictly increasing time order", "out of order")
        }
        if zip(report.daily, report.daily.dropFirst()).contains(where: { $0.date >= $1.date }) {
            fail("days in strictly increasing order", "out of order")
        }
        for day in report.daily {
            if let high = day.temperatureMaxC, let low = day.temperatureMinC, low > high {
                fail("daily minimum ≤ maximum", "\(day.date): \(low) > \(high)")
            }
        }
        checkAlerts(report, capabilities: capabilities, fail: fail)
    }

    /// The rules about the warnings an answer carries.
    private static func checkAlerts(_ report: WeatherReport, capabilities: ProviderCapabilities, fail: (String, String) -> Void) {
        if !report.alerts.isEmpty && !capabilities.kinds.contains(.alerts) {
            fail("alerts only from providers that declare them", "\(report.alerts.count) alert(s)")
        }
        for alert in report.alerts {
            let label = alert.identity.identifier.isEmpty ? alert.event : alert.identity.identifier
            if alert.identity.identifier.isEmpty || alert.event.isEmpty { fail("alerts have an identifier and an event", "'\(label)'") }
            if alert.source != report.providerID { fail("alerts name their provider as source", "\(label): '\(alert.source)'") }
            let ordered = [(alert.effective, alert.expires), (alert.onset, alert.ends), (alert.identity.sent, alert.expires)]
            if ordered.contains(where: { pair in pair.0.flatMap { start in pair.1.map { start > $0 } } ?? false }) {
                fail("alert times in order", "\(label): a start after an end")
            }
            if alert.area.polygons.contains(where: { $0.count < 3 }) { fail("alert polygons have at least 3 corners", label) }
        }
    }

    private static func checkRange(_ value: Double?, _ range: ClosedRange<Double>, _ rule: String, _ label: String,
                                   _ problems: inout [Violation]) {
        guard let value else { return }
        if !value.isFinite || !range.contains(value) { problems.append(Violation(rule: rule, detail: "\(label): \(value)")) }
    }
}

/// Answers every request with HTTP 500 and a non-JSON body.
private struct FailingTransport: Transport {
    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        HTTPResponse(status: 500, headers: [HTTPHeader("Content-Type", "text/html")], body: Array("<h1>Internal Server Error</h1>".utf8))
    }
}
