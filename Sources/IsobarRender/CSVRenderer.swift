import IsobarConsensus
import IsobarCore

/// Writes CSV: a header naming each column with its unit, then one row per source × time as each event happens.
public struct CSVRenderer: Renderer, Sendable {
    private let output: any OutputSink
    private var rows: CSVRows
    private var wroteHeader = false

    /// A renderer writing to `output`.
    public init(context: RenderContext, output: any OutputSink) {
        self.output = output
        rows = CSVRows(view: context.view, units: context.units, now: context.now)
    }

    /// Writes the header first, then the event's rows, and flushes.
    public mutating func handle(_ event: EngineEvent<ConsensusResult>) {
        writeHeader()
        output.write(rows.lines(for: event))
        output.flush()
    }

    /// Writes the header when no event came, so that the output is still a CSV file.
    public mutating func finish() {
        writeHeader()
        output.flush()
    }

    private mutating func writeHeader() {
        guard !wroteHeader else { return }
        wroteHeader = true
        output.write(rows.header)
    }
}
