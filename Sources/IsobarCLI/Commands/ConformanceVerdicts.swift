import FoundationEssentials
import IsobarCore
import IsobarConformance

/// How one provider fared on one rule of `isobar providers check`.
struct RuleVerdict: Sendable, Equatable {
    /// The verdict, written out as its raw value.
    enum Outcome: String, Sendable {
        /// The rule holds.
        case pass
        /// The rule is broken; `detail` says where.
        case fail
        /// The rule could not be checked because an earlier one failed.
        case notChecked = "not_checked"
        /// The rule does not apply to this provider.
        case notApplicable = "not_applicable"
    }

    /// The rule, e.g. `humidity in 0…100 %`.
    let rule: String
    /// Its verdict.
    let outcome: Outcome
    /// Where it broke, or why it was not checked.
    let detail: String?
}

/// The conformance rules (`ProviderConformance`) and the report validation (`WeatherReport.validated(now:)`), run against one
/// configured provider: compiled, replayed or exec.
enum ConformanceVerdicts {
    /// The place lies inside the coverage the provider declares.
    static let coverageRule = "covers the place asked for"
    /// `validated(now:)` removes no value as outside its physical range.
    static let rangesRule = "every value within its physical range (report validation)"
    /// `validated(now:)` removes no time as implausibly far from the answer.
    static let timesRule = "every time plausible around the answer (report validation)"

    /// Every rule, in the order they are shown.
    static var rules: [String] { [coverageRule] + ProviderConformance.rules + [rangesRule, timesRule] }

    /// The verdict on every rule for `provider` (as bound, with its `transport`) asked about `place`; `secret` is its key, if any.
    /// Its fetches are given `deadline` on `time`'s clock.
    static func check(_ provider: any WeatherProvider, transport: any Transport, place: Place, secret: String?,
                      time: any TimeSource, deadline: Date) async -> [RuleVerdict] {
        guard provider.covers(place) else {
            let detail = "\(place.label) lies outside " + (provider.coverage.contains(place.coordinate) ? "its coverage" : provider.coverage.text ?? "its coverage")
            return [RuleVerdict(rule: coverageRule, outcome: .fail, detail: detail)]
                + rules.dropFirst().map { RuleVerdict(rule: $0, outcome: .notChecked, detail: "the place is outside the coverage") }
        }
        // A replay answers from its recordings whatever the transport; the rules that need a failing server run the adapter itself.
        let (adapter, recorded) = provider.adapter(over: transport)
        let violations = await ProviderConformance.check(adapter, place: place, transport: recorded, secret: secret, deadline: deadline, time: time)
        let fetchFailed = violations.contains { $0.rule == ProviderConformance.fetchRule }
        let fetchesItself = adapter.fetchesItself
        var verdicts = [RuleVerdict(rule: coverageRule, outcome: .pass, detail: nil)]
        var reached = true
        for rule in ProviderConformance.rules {
            let broken = violations.filter { $0.rule == rule }
            if rule == ProviderConformance.http500Rule && fetchesItself {
                // Its fetch never meets a server, so the server's 500 cannot reach it.
                verdicts.append(RuleVerdict(rule: rule, outcome: .notApplicable, detail: "the program fetches its data itself"))
            } else if !broken.isEmpty {
                verdicts.append(RuleVerdict(rule: rule, outcome: .fail, detail: summary(broken.map(\.detail))))
            } else if !reached {
                verdicts.append(RuleVerdict(rule: rule, outcome: .notChecked, detail: "no report to check"))
            } else {
                verdicts.append(RuleVerdict(rule: rule, outcome: .pass, detail: nil))
            }
            if rule == ProviderConformance.fetchRule && fetchFailed { reached = false }
        }
        // Rules a later ProviderConformance may add before this list knows them still show, as failures.
        let unknown = violations.filter { !ProviderConformance.rules.contains($0.rule) }
        verdicts += Dictionary(grouping: unknown, by: \.rule).sorted { $0.key < $1.key }.map { rule, broken in
            RuleVerdict(rule: rule, outcome: .fail, detail: summary(broken.map(\.detail)))
        }
        guard !fetchFailed else {
            return verdicts + [rangesRule, timesRule].map { RuleVerdict(rule: $0, outcome: .notChecked, detail: "no report to check") }
        }
        return verdicts + (await validation(provider, transport: transport, place: place, time: time, deadline: deadline))
    }

    /// The two validation rules: the values and times `validated(now:)` would remove from the provider's report.
    private static func validation(_ provider: any WeatherProvider, transport: any Transport, place: Place,
                                   time: any TimeSource, deadline: Date) async -> [RuleVerdict] {
        let report: WeatherReport
        do {
            report = try await provider.fetch(WeatherRequest(place: place, kinds: provider.capabilities.kinds),
                                              context: .bounded(by: deadline, transport: transport, time: time))
        } catch {
            return [rangesRule, timesRule].map { RuleVerdict(rule: $0, outcome: .fail, detail: error.message) }
        }
        let removed = report.validated(now: time.now()).warnings.dropFirst(report.warnings.count)
        let timeFields: Set<String> = ["time", "date", "sunrise", "sunset"]
        let times = removed.filter { timeFields.contains($0.field) }
        let values = removed.filter { !timeFields.contains($0.field) }
        func verdict(_ rule: String, _ warnings: [ValueWarning]) -> RuleVerdict {
            guard !warnings.isEmpty else { return RuleVerdict(rule: rule, outcome: .pass, detail: nil) }
            return RuleVerdict(rule: rule, outcome: .fail, detail: summary(warnings.map { "\($0.path) \($0.value) \($0.reason)" }))
        }
        return [verdict(rangesRule, Array(values)), verdict(timesRule, Array(times))]
    }

    /// The first three details, then how many more.
    static func summary(_ details: [String]) -> String {
        let shown = details.prefix(3).joined(separator: "; ")
        return details.count > 3 ? "\(shown); and \(details.count - 3) more" : shown
    }
}
