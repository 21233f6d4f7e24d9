import IsobarCore
import IsobarRender

/// The one-line progress of a batch on a terminal: done (of the total, when known), rate, time left and failures so far.
struct BatchProgress {
    /// Where it is drawn (standard error, a terminal).
    let sink: any OutputSink
    private(set) var drawn = false

    /// A progress line on `sink`.
    init(sink: any OutputSink) { self.sink = sink }

    /// Redraws the line in place (the caller draws at most ten times a second).
    mutating func draw(_ counts: BatchCounts, total: Int?, elapsed: Double) {
        var text = Self.text(counts, total: total, elapsed: elapsed)
        if let columns = sink.columns, text.count >= columns { text = String(text.prefix(max(0, columns - 1))) }
        sink.write("\r\u{1B}[K" + text)
        sink.flush()
        drawn = true
    }

    /// Erases the line, when one was drawn.
    mutating func erase() {
        guard drawn else { return }
        sink.write("\r\u{1B}[K")
        sink.flush()
        drawn = false
    }

    /// True when the progress line belongs on `errors`: a terminal, and not the one `output` writes the rows to (where
    /// the line would run into them; the rows appearing are the progress there). A terminal that does not say which it
    /// is counts as the same.
    static func belongs(on errors: any OutputSink, besides output: any OutputSink) -> Bool {
        guard errors.isTerminal else { return false }
        guard output.isTerminal else { return true }
        guard let rows = output.terminalDevice, let line = errors.terminalDevice else { return false }
        return rows != line
    }

    /// `batch: 120/1000 places (12%)  35.2/s  ETA 25 s  2 failed, 1 bad line`.
    static func text(_ counts: BatchCounts, total: Int?, elapsed: Double) -> String {
        let done = counts.done
        var parts: [String] = []
        if let total, total > 0 {
            parts.append("batch: \(done)/\(total) (\(min(100, done * 100 / total))%)")
        } else {
            parts.append("batch: \(done) done")
        }
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        parts.append("\(JSONOutput.format((rate * 10).rounded() / 10))/s")
        if let total, rate > 0, total > done { parts.append("ETA \(duration(Double(total - done) / rate))") }
        var failures: [String] = []
        if counts.failed > 0 { failures.append("\(counts.failed) failed") }
        if counts.partial > 0 { failures.append("\(counts.partial) partial") }
        if counts.inputErrors > 0 { failures.append("\(counts.inputErrors) bad line\(counts.inputErrors == 1 ? "" : "s")") }
        if !failures.isEmpty { parts.append(failures.joined(separator: ", ")) }
        return parts.joined(separator: "  ")
    }

    /// `45 s`, `12 min`, `3 h 20 min`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole % 3600 / 60) min"
    }
}
