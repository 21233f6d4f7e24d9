import IsobarCore

/// The line a weather command ends with when nothing, or too little, answered: the cause the failures share, and what to
/// do next. Tables, `--plain` and JSON lines (`verdict` on the consensus line) say the same.
public struct Verdict: Equatable, Sendable {
    /// What the failures have in common; written in JSON lines as its raw value.
    public enum Cause: String, Equatable, Sendable {
        /// No provider could be reached: no network, a DNS failure, connections refused, or `--offline` with nothing cached.
        case offline
        /// No provider is set up: a key or a contact is missing, or a key was refused.
        case notConfigured = "not_configured"
        /// Every provider is rate-limited, or paused after failed attempts or because it asked for a pause.
        case rateLimited = "rate_limited"
        /// No configured provider covers the place.
        case outsideCoverage = "outside_coverage"
        /// Replayed data (`--demo`, `--replay`) has no recording of the place.
        case notRecorded = "not_recorded"
        /// Every provider failed, for other reasons (timeouts, answers that could not be read).
        case failed
        /// The failures have different causes.
        case mixed
    }

    /// What the failures have in common.
    public var cause: Cause
    /// Answers that came.
    public var answered: Int
    /// Answers needed (`--min-providers`, else 1).
    public var needed: Int
    /// The first sentence: what happened and why.
    public var summary: String
    /// The second: `Next: …`.
    public var nextStep: String
    /// The environment variables that would set up the providers that are not set up, in display order.
    public var settings: [String]

    /// Both sentences on one line.
    public var line: String { "\(summary) \(nextStep)" }

    /// The verdict on a place's failures, in display order, when fewer than `context.minimumAnswers` of its sources answered;
    /// nil when enough did.
    public static func judge(_ failures: [(id: String, error: ProviderError)], answered: Int, context: RenderContext) -> Verdict? {
        let needed = max(1, context.minimumAnswers)
        guard answered < needed else { return nil }
        let kinds = failures.map { (name: context.name(of: $0.id), kind: FailureKind($0.error), error: $0.error) }
        // Providers that do not cover the place are no fault; they decide the cause only when nothing else happened.
        let faults = kinds.filter { $0.kind != .outsideCoverage }
        let judged = faults.isEmpty ? kinds : faults
        let distinct = Set(judged.map(\.kind))
        let cause: Cause = distinct.count == 1 ? distinct.first.map(\.cause) ?? .failed : judged.isEmpty ? .failed : .mixed
        let lead = answered == 0 ? "No provider answered" : "Only \(answered) answered of the \(needed) --min-providers asks for"
        // Some answered: the ones that did not are named, whatever their cause.
        let summary = "\(lead): " + reason(answered == 0 ? cause : .mixed, judged, context: context) + "."
        let settings = unique(judged.filter { $0.kind == .notSetUp }.compactMap(\.error.setting))
        return Verdict(cause: cause, answered: answered, needed: needed, summary: summary,
                       nextStep: nextStep(judged, context: context), settings: settings)
    }

    /// Why, for the first sentence: the shared cause, or each kind of failure with its providers.
    private static func reason(_ cause: Cause, _ failures: [(name: String, kind: FailureKind, error: ProviderError)],
                               context: RenderContext) -> String {
        switch cause {
        case .offline:
            if failures.allSatisfy({ $0.error.reason == .offline }) { return "--offline is set and nothing is cached" }
            return "none could be reached (no network, a DNS failure or connections refused)"
        case .notConfigured: return "none is set up yet (a key or a contact is missing)"
        case .rateLimited: return "every provider is rate-limited or paused for now"
        case .outsideCoverage: return "no configured provider covers \(context.place.name)"
        case .notRecorded:
            return context.isDemo ? "the demo has no recording of \(context.place.name)" : "no recording answers for \(context.place.name)"
        case .failed: return failures.isEmpty ? "no provider was asked" : "every provider failed (see the lines above)"
        case .mixed:
            return FailureKind.allCases.compactMap { kind -> String? in
                let names = unique(failures.filter { $0.kind == kind }.map(\.name))
                guard !names.isEmpty else { return nil }
                return PlainWords.list(names) + " " + kind.clause(plural: names.count > 1, place: context.place.name)
            }.joined(separator: "; ")
        }
    }

    /// `Next: …`: the settings that set up what is not set up, the network, a later try, and the demo.
    private static func nextStep(_ failures: [(name: String, kind: FailureKind, error: ProviderError)], context: RenderContext) -> String {
        var steps: [String] = []
        let unset = failures.filter { $0.kind == .notSetUp }
        if !unset.isEmpty {
            var named: [String] = []
            for failure in unset {
                let step = failure.error.setting.map { "\($0) (\(failure.name))" } ?? "the key of \(failure.name)"
                if !named.contains(step) { named.append(step) }
            }
            steps.append("set " + PlainWords.list(named) + ", or run isobar setup")
        }
        if failures.contains(where: { $0.kind == .unreachable }) {
            steps.append(failures.allSatisfy { $0.kind != .unreachable || $0.error.reason == .offline }
                ? "leave out --offline" : "check the network connection")
        }
        if failures.contains(where: { $0.kind == .paused }) { steps.append("try again later") }
        if context.isDemo, failures.contains(where: { $0.kind == .notRecorded }) {
            let places = context.demoPlaces.isEmpty ? "a recorded place" : PlainWords.list(context.demoPlaces, conjunction: "or")
            steps.append("ask \(places), or leave out --demo for live data")
        }
        if failures.contains(where: { $0.kind == .outsideCoverage }) && failures.allSatisfy({ $0.kind == .outsideCoverage }) {
            steps.append("enable a provider that covers it (isobar providers --available)")
        }
        if !context.isDemo { steps.append((steps.isEmpty ? "" : "or ") + "add --demo to see recorded data") }
        guard !steps.isEmpty else { return "Next: see the lines above." }
        return "Next: " + steps.joined(separator: "; ") + "."
    }

    /// The items in their first order, each once.
    private static func unique(_ items: [String]) -> [String] {
        var seen: [String] = []
        for item in items where !seen.contains(item) { seen.append(item) }
        return seen
    }
}

/// What kind of failure a provider's was, as the verdict groups them.
public enum FailureKind: CaseIterable, Hashable, Sendable {
    /// Not set up: a key or a contact is missing, or the key was refused.
    case notSetUp
    /// Not reached: no network, a DNS failure, a refused or timed-out connection, or `--offline`.
    case unreachable
    /// Rate-limited, or paused (after failed attempts, or because the provider asked for a pause).
    case paused
    /// Replayed, and no recording answers the request.
    case notRecorded
    /// Any other failure.
    case other
    /// Not asked: the place is outside its coverage.
    case outsideCoverage

    /// The kind of `error`.
    public init(_ error: ProviderError) {
        switch (error.code, error.reason) {
        case (_, .outsideCoverage?): self = .outsideCoverage
        case (.notConfigured, _), (.unauthorized, _): self = .notSetUp
        case (_, .dnsFailure?), (_, .connectionRefused?), (_, .connectTimeout?), (_, .offline?): self = .unreachable
        case (_, .notRecorded?): self = .notRecorded
        case (.rateLimited, _), (_, .breakerOpen?), (_, .cooldown?), (_, .cooldownWait?), (_, .localLimit?): self = .paused
        default: self = .other
        }
    }

    /// The verdict's cause when every failure is of this kind.
    public var cause: Verdict.Cause {
        switch self {
        case .notSetUp: .notConfigured
        case .unreachable: .offline
        case .paused: .rateLimited
        case .other: .failed
        case .notRecorded: .notRecorded
        case .outsideCoverage: .outsideCoverage
        }
    }

    /// `is not set up`, `could not be reached`, …: what happened to the providers named before it.
    public func clause(plural: Bool, place: String) -> String {
        switch self {
        case .notSetUp: plural ? "are not set up" : "is not set up"
        case .unreachable: "could not be reached"
        case .paused: plural ? "are rate-limited or paused" : "is rate-limited or paused"
        case .other: "failed"
        case .notRecorded: plural ? "have no recording of \(place)" : "has no recording of \(place)"
        case .outsideCoverage: plural ? "do not cover \(place)" : "does not cover \(place)"
        }
    }
}
