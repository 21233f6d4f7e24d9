import FoundationEssentials
import IsobarCore

/// The `air` JSON line and the CSV rows of `isobar air`, from a gathered report.
public enum AirLines {
    /// The symbols of the air quantities' units.
    public static var units: JSONOutput { .object(Quantity.air.map { ($0.rawValue, .string(UnitSystem.metric.symbol(for: $0))) }) }

    /// One index as an object.
    public static func index(_ index: AirIndexValue) -> JSONOutput {
        .object([
            ("scale", .string(index.scale.rawValue)), ("scale_name", .string(index.scale.name)), ("revision", .string(index.scale.revision)),
            ("value", .integer(index.value)), ("beyond_scale", .bool(index.isBeyondScale)), ("category", .string(index.category.id)),
            ("category_name", .string(index.category.name)), ("message", .string(index.category.message)),
            ("pollutant", .string(index.pollutant.rawValue)),
        ])
    }

    /// Every air quantity's value (null when not given).
    public static func values(_ value: (Quantity) -> Double?) -> [(String, JSONOutput)] {
        Quantity.air.map { quantity in (quantity.rawValue, .number(value(quantity).map { ($0 * 1000).rounded() / 1000 })) }
    }

    /// One merged instant.
    public static func moment(_ moment: AirReport.Moment, offset: Int) -> JSONOutput {
        .object([("time", .string(CivilTime.iso(moment.time, utcOffsetSeconds: offset)))] + values { moment.values[$0]?.value }
            + [("indices", .array(moment.indices.map(index)))])
    }

    /// The `place` member of an air line.
    public static func place(_ report: AirReport) -> JSONOutput {
        .object(PlaceJSON.locating(report.place) + [("utc_offset_seconds", .integer(report.utcOffsetSeconds))])
    }

    /// Each source's current values and own index.
    public static func sources(_ report: AirReport) -> [JSONOutput] {
        report.sources.map { source in
            let own: JSONOutput = source.current?.providerAirIndex.map { own in
                .object([("scale", .string(own.scale)), ("value", .number(own.value)), ("category", .string(own.category))])
            } ?? .null
            return .object([("provider", .string(source.id)), ("provider_name", .string(source.name)),
                            ("time", .string(source.current.map { CivilTime.iso($0.time, utcOffsetSeconds: report.utcOffsetSeconds) }))]
                + values { source.current?[$0] } + [("own_index", own)])
        }
    }

    /// The whole report as one `air` line; in a batch, with the input line's number and `id` after its type.
    public static func line(_ report: AirReport, hours: Int, label: LineLabel? = nil) -> String {
        var members: [(String, JSONOutput)] = []
        if let label {
            members.append(("input_line", .integer(label.inputLine)))
            if let id = label.id { members.append(("id", .string(id))) }
        }
        members += [
            ("place", place(report)), ("units", units),
            ("current", report.current.map { moment($0, offset: report.utcOffsetSeconds) } ?? .null),
            ("sources", .array(sources(report))),
            ("failures", .array(report.failures.map { .object([("provider", .string($0.id)), ("message", .string($0.message))]) })),
            ("pollen", .string(report.hasPollen ? "given" : "none")),
            ("hourly", .array(report.hourly.prefix(hours).map { moment($0, offset: report.utcOffsetSeconds) })),
        ]
        return JSONLine.text("air", members)
    }

    /// The CSV header and one row for now and each hour asked.
    public static func csv(_ report: AirReport, hours: Int) -> String {
        csvHeader() + csvRows(report, hours: hours)
    }

    /// The CSV header, between `leading` and `trailing` columns.
    public static func csvHeader(leading: [String] = [], trailing: [String] = []) -> String {
        var header = leading + ["place", "time", "kind"] + Quantity.air.map { "\($0.rawValue)_\(UnitSystem.metric.symbol(for: $0))" }
        for scale in AirIndexScale.allCases { header += [scale.rawValue, "\(scale.rawValue)_category", "\(scale.rawValue)_pollutant"] }
        return CSVField.line((header + trailing).map { Optional($0) })
    }

    /// The cells of the header's columns from `place` on.
    public static var csvColumnCount: Int { 3 + Quantity.air.count + 3 * AirIndexScale.allCases.count }

    /// One row for now and each hour asked, each between the `leading` and `trailing` cells.
    public static func csvRows(_ report: AirReport, hours: Int, leading: [String?] = [], trailing: [String?] = []) -> String {
        func row(_ moment: AirReport.Moment, kind: String) -> [String?] {
            var cells: [String?] = leading + [report.place.label, CivilTime.iso(moment.time, utcOffsetSeconds: report.utcOffsetSeconds), kind]
            cells += Quantity.air.map { quantity in moment.values[quantity].map { JSONOutput.format(($0.value * 1000).rounded() / 1000) } }
            for scale in AirIndexScale.allCases {
                let index = moment.index(scale)
                cells += [index.map { String($0.value) }, index?.category.name, index?.pollutant.rawValue]
            }
            return cells + trailing
        }
        var text = ""
        if let current = report.current { text += CSVField.line(row(current, kind: "current")) }
        for moment in report.hourly.prefix(hours) { text += CSVField.line(row(moment, kind: "hour")) }
        return text
    }
}
