import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// What a renderer that draws at the end keeps of one place's events: the answers with their notes, the failures and
/// the consensus.
public struct CollectedEvents: Sendable {
    /// Every answer, in the order they came.
    private(set) var reports: [WeatherReport] = []
    /// Each answer's notes, by source id.
    private(set) var notes: [(id: String, note: ResultNote)] = []
    /// Every failure, by provider id.
    private(set) var failures: [(id: String, error: ProviderError)] = []
    /// The merge, once it came.
    private(set) var consensus: ConsensusResult?

    /// Keeps one event.
    public mutating func collect(_ event: EngineEvent<ConsensusResult>) {
        switch event {
        case .result(_, let result):
            reports.append(result.report)
            notes += result.notes.map { (result.report.providerID, $0) }
        case .failure(_, let id, let error): failures.append((id, error))
        case .consensus(_, let merged): consensus = merged
        }
    }

    /// The answers in display order (the order of `context.providers`).
    public func answers(in context: RenderContext) -> [WeatherReport] {
        context.providers.compactMap { provider in reports.first { $0.providerID == provider.id } }
    }

    /// Every failure in display order: a provider whose sources have ids of their own in the place of its first source, and
    /// one whose id is not displayed at all last, so that none is ever left out.
    public func failures(in context: RenderContext) -> [(id: String, error: ProviderError)] {
        var shown: [(id: String, error: ProviderError)] = []
        for source in context.providers {
            let owner = context.configured.first { $0.sources.first == source.id && $0.id != source.id }?.id
            for id in [source.id] + (owner.map { [$0] } ?? []) {
                if !shown.contains(where: { $0.id == id }), let failure = failures.first(where: { $0.id == id }) { shown.append(failure) }
            }
        }
        return shown + failures.filter { failure in !shown.contains { $0.id == failure.id } }
    }

    /// The verdict on this place, when fewer answers came than `context.minimumAnswers`.
    public func verdict(in context: RenderContext) -> Verdict? {
        Verdict.judge(failures(in: context), answered: reports.count, context: context)
    }
}

/// "Replayed data, not live: …": which sources were replayed, and when they were recorded.
public enum ReplayNotice: Sendable {
    /// `OpenWeatherMap, Open-Meteo GFS and MET Norway recorded 2026-11-28 09:00 UTC`, the sources recorded at another
    /// moment in a clause of their own (`; …`), in the order given; nil when nothing was replayed.
    public static func clauses(_ replays: [(name: String, recordedAt: Date)]) -> String? {
        var moments: [Date] = []
        for replay in replays where !moments.contains(replay.recordedAt) { moments.append(replay.recordedAt) }
        guard !moments.isEmpty else { return nil }
        return moments.map { moment in
            PlainWords.list(replays.filter { $0.recordedAt == moment }.map(\.name)) + " recorded \(TableRenderer.utcText(moment))"
        }.joined(separator: "; ")
    }

    /// The replayed answers among `reports`, named by `name`, in their order.
    public static func replays(_ reports: [WeatherReport], name: (String) -> String) -> [(name: String, recordedAt: Date)] {
        reports.compactMap { report in
            guard case .replay(let recordedAt) = report.source else { return nil }
            return (name(report.providerID), recordedAt)
        }
    }
}

extension ProviderError {
    /// What the tables and sentences say of a failure of provider `name`: its label (`timeout`, `rate limited`) and its
    /// message without the name in front.
    public func told(by name: String) -> (label: String, message: String) {
        let message = message.hasPrefix(name + ": ") ? String(message.dropFirst(name.count + 2)) : message
        let outcome = ProviderOutcome(self)
        return (outcome == .error ? codeName.replacingUnderscores : outcome.rawValue.replacingUnderscores, message)
    }
}

extension RenderContext {
    /// How a provider's failure is told: as `ProviderError.told(by:)`, except that in the demo a request with no recording is
    /// said briefly (the verdict names the places recorded; the request itself is in the JSON lines).
    func told(_ error: ProviderError, by name: String) -> (label: String, message: String) {
        if isDemo, error.reason == .notRecorded { return ("not recorded", "the demo has no recording of \(place.name)") }
        return error.told(by: name)
    }

    /// The credits the licences of the answers shown ask for, each once, in their order.
    public func credits(of shown: [WeatherReport]) -> [String] {
        var credits: [String] = []
        for report in shown {
            if let credit = attributions[report.providerID], !credits.contains(credit) { credits.append(credit) }
        }
        return credits
    }
}
