import FoundationEssentials
import IsobarCore
import IsobarEngine

/// Sentences for screen readers and dumb terminals (`--plain`, `TERM=dumb`): one sentence a line, units spelled out,
/// times on the place's local clock, no table, box drawing or colour.
public struct PlainRenderer: Renderer {
    private let context: RenderContext
    private let output: any OutputSink
    private var reports: [WeatherReport] = []
    private var notes: [(id: String, note: ResultNote)] = []
    private var failures: [(id: String, error: ProviderError)] = []
    private var consensus: ConsensusResult?

    /// A renderer writing to `output`.
    public init(context: RenderContext, output: any OutputSink) {
        self.context = context
        self.output = output
    }

    /// Keeps the event for the sentences at the end.
    public mutating func handle(_ event: EngineEvent) {
        switch event {
        case .result(_, let result):
            reports.append(result.report)
            notes += result.notes.map { (result.report.providerID, $0) }
        case .failure(_, let id, let error): failures.append((id, error))
        case .consensus(_, let merged): consensus = merged
        }
    }

    /// Writes the view's sentences, then what failed and where the data came from.
    public mutating func finish() {
        let ordered = context.providers.compactMap { provider in reports.first { $0.providerID == provider.id } }
        var text = ""
        if let consensus, !ordered.isEmpty {
            let sentences = PlainSentences(context: context, consensus: consensus)
            let window = ForecastWindow(reports: ordered, now: context.now, days: context.view.sections.days)
            switch context.view {
            case .now: text += sentences.now() + (Glance.sentences(GlanceInput(consensus: consensus, window: window)) ?? "")
            case .compare: text += sentences.compare()
            case .forecast(let days, let hourly): text += sentences.forecast(window: window, days: days, hourly: hourly)
            case .detail:
                text += sentences.now() + (Glance.sentences(GlanceInput(consensus: consensus, window: window)) ?? "")
                text += sentences.forecast(window: window, days: 5, hourly: false)
            }
        } else {
            text += "No provider answered for \(context.place.fullLabel).\n"
        }
        text += footer(ordered)
        output.write(text)
        output.flush()
    }

    /// Failures, notes, stale answers, replays and credits, a sentence each.
    private func footer(_ shown: [WeatherReport]) -> String {
        var text = ""
        for failure in context.providers.compactMap({ provider in failures.first { $0.id == provider.id } }) {
            let name = context.name(of: failure.id)
            if failure.error.reason == .outsideCoverage {
                text += "\(name) was not asked: \(context.place.name) is outside its coverage.\n"
                continue
            }
            let message = failure.error.message.hasPrefix(name + ": ") ? String(failure.error.message.dropFirst(name.count + 2)) : failure.error.message
            let outcome = ProviderOutcome(failure.error)
            let label = outcome == .error ? failure.error.codeName.replacingUnderscores : outcome.rawValue.replacingUnderscores
            text += "\(name) did not answer: \(label), \(message).\n"
        }
        for (id, note) in notes { text += "\(context.name(of: id)): \(ResultNoteText.sentence(note, place: context.place)).\n" }
        for report in shown {
            if case .stale(let age, let because) = report.freshness {
                text += "\(context.name(of: report.providerID)) answered from the cache, \(TableRenderer.ageText(age)) old, because \(because).\n"
            }
        }
        let replays = shown.compactMap { report -> String? in
            guard case .replay(let recordedAt) = report.source else { return nil }
            return "\(context.name(of: report.providerID)) recorded \(TableRenderer.utcText(recordedAt))"
        }
        if !replays.isEmpty { text += "Replayed data, not live: \(PlainWords.list(replays)).\n" }
        var credits: [String] = []
        for report in shown {
            if let credit = context.attributions[report.providerID], !credits.contains(credit) { credits.append(credit) }
        }
        if !credits.isEmpty { text += "Data: \(credits.joined(separator: "; ")).\n" }
        return text
    }
}
