import IsobarConsensus
import IsobarCore

/// Writes CSV: a header naming each column with its unit, then one row per source × time as each event happens.
public struct CSVRenderer: Renderer, Sendable {
    private let output: any OutputSink
    private var rows: CSVRows
    private var wroteHeader = false
    /// The air sources' rows under the weather's (`compare` with air sources), which add columns of their own.
    private let air: AirComparison?

    /// A renderer writing to `output`.
    public init(context: RenderContext, output: any OutputSink) {
        self.output = output
        rows = CSVRows(view: context.view, units: context.units, now: context.now)
        air = context.view == .compare ? context.air.map(AirComparison.init) : nil
    }

    /// Writes the header first, then the event's rows, and flushes.
    public mutating func handle(_ event: EngineEvent<ConsensusResult>) {
        writeHeader()
        if air == nil {
            output.write(rows.lines(for: event))
        } else {
            let empty = [String?](repeating: nil, count: AirComparison.csvColumns.count)
            output.write(rows.rows(for: event).map { CSVField.line($0 + empty) }.joined())
        }
        output.flush()
    }

    /// Writes the header when no event came, so that the output is still a CSV file, then the air sources' rows.
    public mutating func finish() {
        writeHeader()
        if let air { output.write(air.csvRows(weatherColumns: rows.columns.count).map(CSVField.line).joined()) }
        output.flush()
    }

    private mutating func writeHeader() {
        guard !wroteHeader else { return }
        wroteHeader = true
        output.write(air == nil ? rows.header : CSVField.line(rows.columns + AirComparison.csvColumns))
    }
}
