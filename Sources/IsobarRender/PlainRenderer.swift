import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// Sentences for screen readers and dumb terminals (`--plain`, `TERM=dumb`): one sentence a line, units spelled out,
/// times on the place's local clock, no table, box drawing or colour.
public struct PlainRenderer: Renderer, Sendable {
    private let context: RenderContext
    private let output: any OutputSink
    private var events = CollectedEvents()

    /// A renderer writing to `output`.
    public init(context: RenderContext, output: any OutputSink) {
        self.context = context
        self.output = output
    }

    /// Keeps the event for the sentences at the end.
    public mutating func handle(_ event: EngineEvent<ConsensusResult>) { events.collect(event) }

    /// Writes the view's sentences, then what failed and where the data came from.
    public mutating func finish() {
        let ordered = events.answers(in: context)
        var text = ""
        if let consensus = events.consensus, !ordered.isEmpty {
            let sentences = PlainSentences(context: context, consensus: consensus)
            let window = ForecastWindow(reports: ordered, now: context.now, days: context.view.sections.days)
            switch context.view {
            case .now: text += sentences.now() + (Glance.sentences(GlanceInput(consensus: consensus, window: window)) ?? "")
            case .compare: text += sentences.compare() + (context.air.map { AirComparison($0).sentences() } ?? "")
            case .forecast(let days, let hourly): text += sentences.forecast(window: window, days: days, hourly: hourly)
            case .detail:
                text += sentences.now() + (Glance.sentences(GlanceInput(consensus: consensus, window: window)) ?? "")
                text += sentences.forecast(window: window, days: 5, hourly: false)
            }
        } else {
            text += "No provider answered for \(context.spokenPlace).\n"
        }
        text += footer(ordered)
        output.write(text)
        output.flush()
    }

    /// Failures, notes, stale answers, replays and credits, a sentence each.
    private func footer(_ shown: [WeatherReport]) -> String {
        var text = ""
        for failure in events.failures(in: context) {
            let name = context.failureName(of: failure.id)
            if failure.error.reason == .outsideCoverage {
                text += "\(name) was not asked: \(context.place.name) is outside its coverage.\n"
                continue
            }
            let (label, message) = context.told(failure.error, by: context.name(of: failure.id))
            text += "\(name) did not answer: \(label), \(message).\n"
        }
        for (id, note) in events.notes { text += "\(context.name(of: id)): \(ResultNoteText.sentence(note, place: context.place)).\n" }
        for report in shown {
            if case .stale(let age, let because) = report.freshness {
                text += "\(context.name(of: report.providerID)) answered from the cache, \(TableRenderer.ageText(age)) old, because \(because).\n"
            }
        }
        if let replays = ReplayNotice.clauses(ReplayNotice.replays(shown, name: context.name(of:))) {
            text += "Replayed data, not live: \(replays).\n"
        }
        let credits = context.credits(of: shown)
        if !credits.isEmpty { text += "Data: \(credits.joined(separator: "; ")).\n" }
        if let verdict = events.verdict(in: context) { text += verdict.line + "\n" }
        return text
    }
}
