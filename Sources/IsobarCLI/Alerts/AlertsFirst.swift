import FoundationEssentials
import IsobarCore
import IsobarRender
import IsobarEngine

/// The warnings a weather view shows above everything else: one line each, most severe first, with expiry and sources;
/// nothing at all when none is in force and every alert source answered.
enum AlertsFirst {
    /// Lines for people: `SEVERE Winter Storm Warning until Sat Nov 28 16:00 · NWS`, a line per alert source that could
    /// not answer, then an empty line; empty when there is nothing to say.
    static func table(_ report: AlertsReport, width: Int?) -> String {
        var lines = report.active.map { AlertText.summary($0, utcOffsetSeconds: report.utcOffsetSeconds, name: report.name(of:)) }
        lines += failures(report).map { "Warnings from \($0.name) unknown: \($0.message)" }
        lines += report.staleSources.map { "Warnings from \($0.name) as of \(AlertText.asOf($0.asOf, report)); could not refresh: \($0.error.message)" }
        guard !lines.isEmpty else { return "" }
        return lines.flatMap { line in width.map { TextWrap.wrap(line, width: $0) } ?? [line] }.joined(separator: "\n") + "\n\n"
    }

    /// Sentences for `--plain`, warnings first; empty when there is nothing to say.
    static func plain(_ report: AlertsReport) -> String {
        var lines = report.active.map { AlertsPlain.sentence($0, utcOffsetSeconds: report.utcOffsetSeconds, name: report.name(of:)) }
        lines += failures(report).map { "Warnings from \($0.name) are unknown: " + AlertsPlain.ending($0.message) }
        lines += report.staleSources.map {
            "Warnings from \($0.name) are as of \(AlertText.asOf($0.asOf, report)); could not refresh: " + AlertsPlain.ending($0.error.message)
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// The sources that could not answer, with why.
    private static func failures(_ report: AlertsReport) -> [(name: String, message: String)] {
        report.sources.compactMap { source in
            guard case .failed(let error) = source.answer else { return nil }
            return (source.name, error.message)
        }
    }
}

extension AlertsFirst {
    /// Starts asking `bindings` about `place` (keeping answers in `cache`, when given; validators sent unless
    /// `sendsValidators` is false), on `executor` when given; nil when there is no alert source.
    static func task(_ bindings: [ProviderBinding], place: Place, time: any TimeSource, timeoutSeconds: Double,
                     cache: (any ResponseCache)?, sendsValidators: Bool, executor: (any TaskExecutor)?) -> Task<AlertsReport, Never>? {
        guard !bindings.isEmpty else { return nil }
        let gathering = AlertsGathering(bindings: bindings, time: time, timeoutSeconds: timeoutSeconds, cache: cache,
                                        sendsValidators: sendsValidators)
        return Task(executorPreference: executor) { await gathering.report(for: place) }
    }

    /// Writes the warnings in the view's format: lines for people, sentences, or `alert` JSON lines; CSV rows are the
    /// weather's alone (`isobar alerts --format csv` gives the warnings).
    static func write(_ report: AlertsReport, format: OutputFormat, plain: Bool, query: String, width: Int?, to output: any OutputSink) {
        RendererFactory.write(Forms(report: report, query: query, plain: plain), as: format, width: width, to: output)
        output.flush()
    }

    /// The warnings above a weather view, in each form.
    private struct Forms: CommandReport {
        let report: AlertsReport
        let query: String
        let plain: Bool

        func text(width: Int?) -> String { plain ? AlertsFirst.plain(report) : AlertsFirst.table(report, width: width) }

        func jsonLines() -> String {
            var lines = AlertLines(query: query)
            return String(decoding: lines.lines(report, failures: false), as: UTF8.self)
        }

        func csv() -> String { "" }
    }
}
