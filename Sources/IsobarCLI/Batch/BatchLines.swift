import IsobarCore
import IsobarRender

/// The lines only a batch writes: `input_error` for a line that cannot be asked about, and the closing `summary`.
enum BatchLines {
    /// Characters of a bad line echoed in its `input_error` line.
    static let echoedCharacters = 200

    /// `{"schema":1,"type":"input_error","input_line":N,"id":…,"input":"…","error":{"code":…,"message":…}}`.
    static func inputError(line: InputLine, _ error: BatchLineError) -> String {
        var members: [(String, JSONOutput)] = [
            ("schema", .integer(JSONLinesRenderer.schemaVersion)), ("type", .string("input_error")), ("input_line", .integer(line.number)),
        ]
        if let id = error.id { members.append(("id", .string(id))) }
        members.append(("input", .string(String(line.text.prefix(echoedCharacters)))))
        members.append(("error", .object([("code", .string(error.code.rawValue)), ("message", .string(error.message))])))
        return JSONOutput.object(members).serialized() + "\n"
    }

    /// The header of an air batch's CSV: the input line and id, the columns of `isobar air --format csv`, and the error.
    static var airCSVHeader: String { AirLines.csvHeader(leading: ["input_line", "id"], trailing: ["error"]) }

    /// A bad line in an air batch's CSV: its number and id, kind `input_error`, the error's code last.
    static func airInputErrorRow(line: InputLine, _ error: BatchLineError) -> String {
        var cells: [String?] = [String(line.number), error.id, nil, nil, "input_error"]
        cells += [String?](repeating: nil, count: AirLines.csvColumnCount - 3)
        return CSVField.line(cells + [error.code.rawValue])
    }

    /// The summary in words, for CSV output (which has no room for it): `1000 places: 990 ok, …; 12.3 s`.
    static func summarySentence(_ counts: BatchCounts, requests: Int, wallSeconds: Double, interrupted: Bool) -> String {
        "\(interrupted ? "interrupted after " : "")\(counts.places) places: \(counts.ok) ok, \(counts.partial) partial, \(counts.failed) failed; "
            + "\(counts.inputErrors) input errors; \(requests) requests, \(counts.cacheHits) cache hits; "
            + "\(JSONOutput.format((wallSeconds * 10).rounded() / 10)) s"
    }

    /// `{"schema":1,"type":"summary","places":N,"ok":N,"partial":N,"failed":N,"input_errors":N,"requests":N,"cache_hits":N,
    /// "wall_s":1.234,"interrupted":false}`.
    static func summary(_ counts: BatchCounts, requests: Int, wallSeconds: Double, interrupted: Bool) -> String {
        JSONOutput.object([
            ("schema", .integer(JSONLinesRenderer.schemaVersion)), ("type", .string("summary")),
            ("places", .integer(counts.places)), ("ok", .integer(counts.ok)), ("partial", .integer(counts.partial)),
            ("failed", .integer(counts.failed)), ("input_errors", .integer(counts.inputErrors)), ("requests", .integer(requests)),
            ("cache_hits", .integer(counts.cacheHits)), ("wall_s", .number((wallSeconds * 1000).rounded() / 1000)),
            ("interrupted", .bool(interrupted)),
        ]).serialized() + "\n"
    }
}
