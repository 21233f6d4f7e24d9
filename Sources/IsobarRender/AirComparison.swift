import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// The air part of `compare`: one row per pollutant any air source gave (each source's concentration, the merge, its spread
/// and outliers, as the weather's rows), the indices computed from the merged concentrations, and each source's own index,
/// never merged; as table rows, sentences, an `air_comparison` JSON line and CSV rows.
public struct AirComparison: Sendable {
    /// What the air sources said and their merge.
    public let report: AirReport

    /// The comparison of `report`.
    public init(_ report: AirReport) { self.report = report }

    /// The pollutants and pollen any source gave now, in the quantity table's order.
    var quantities: [Quantity] {
        Quantity.air.filter { quantity in
            report.current?.values[quantity] != nil || report.sources.contains { $0.current?[quantity] != nil }
        }
    }

    /// `Open-Meteo Air and OpenWeatherMap Air recorded 2026-11-28 09:00 UTC`, or nil when every air source answered live.
    var replays: String? {
        ReplayNotice.clauses(report.sources.compactMap { source in
            guard case .replay(let recordedAt) = source.source else { return nil }
            return (source.name, recordedAt)
        })
    }

    /// The merged fields now (for the outlier and disagreement legends).
    var fields: [MergedField] { report.current.map { Array($0.values.values) } ?? [] }

    // MARK: Table

    /// The table under the weather's: a column per air source, then the merge and its spread (`*` an outlier left out, `!`
    /// more apart than usual), the indices on the merge's row, the sources' own indices on theirs; then what was not asked.
    func table(width: Int?, style: Style) -> String {
        let names = report.sources.map(\.name)
        var table = TextTable(header: ["Air now"] + names + ["Merged", "Spread"])
        let merged = report.current?.values ?? [:]
        for quantity in quantities {
            let field = merged[quantity]
            let said: [String] = report.sources.map { source in
                guard let value = source.current?[quantity] else { return "–" }
                let text = AirText.value(value, quantity)
                return field?.outliers.contains(source.id) == true ? style.red(text + "*") : text
            }
            table.rows.append(["\(quantity.spec.shortLabel) \(UnitSystem.metric.symbol(for: quantity))"] + said
                + [field.map { AirText.value($0.value, quantity) + ($0.outliers.isEmpty ? "" : "*") } ?? "–", spread(field, quantity)])
        }
        for index in report.current?.indices ?? [] {
            table.rows.append([Self.scaleLabel(index.scale)] + names.map { _ in "" } + [AirText.index(index), ""])
        }
        if report.sources.contains(where: { $0.current?.providerAirIndex != nil }) {
            table.rows.append(["Own index"] + report.sources.map { source in
                source.current?.providerAirIndex.map { "\(JSONOutput.format($0.value)) \($0.category ?? "")".trimmingTrailingSpaces() } ?? "–"
            } + ["", ""])
        }
        table.narrowing = AirText.sourceColumnsNarrowing(names)
        var text = table.render(width: width, bold: style.bold)
        if let current = report.current, !current.indices.isEmpty {
            let scales = current.indices.map { "\($0.scale.name), \($0.scale.revision)" }.joined(separator: "; ")
            text += "Indices computed by Isobar from the merged concentrations: \(scales).\n"
        }
        for source in report.sources {
            guard let own = source.current?.providerAirIndex else { continue }
            text += "Own index: \(source.name)'s, on its \(own.scale) scale; shown as given, never merged.\n"
        }
        for failure in report.failures { text += style.red("\(failure.id): \(failure.message)") + "\n" }
        if let replays { text += style.yellow("Air sources replayed, not live: \(replays)") + "\n" }
        return text
    }

    /// The short label of a scale's row (`US AQI`, `EAQI`).
    static func scaleLabel(_ scale: AirIndexScale) -> String {
        switch scale {
        case .usAQI: "US AQI"
        case .europeanAQI: "EAQI"
        }
    }

    /// The spread of the values merged, with every value's when an outlier was left out; `!` beyond the quantity's floor.
    private func spread(_ field: MergedField?, _ quantity: Quantity) -> String {
        guard let field, field.inputs.count > 1 else { return "" }
        var cell = AirText.value(field.spreadWithoutOutliers(circular: false), quantity)
        if !field.outliers.isEmpty { cell += " (\(AirText.value(field.spread, quantity)) with *)" }
        return field.disagreement?.exceedsFloor == true ? cell + " !" : cell
    }

    // MARK: Sentences

    /// The sentences after the weather's: each pollutant merged and as each source said, the indices, the own indices.
    func sentences() -> String {
        guard let current = report.current else { return "" }
        var lines = ["Air quality from \(report.sources.count) source\(report.sources.count == 1 ? "" : "s"): "
            + "\(PlainWords.list(report.sources.map(\.name)))."]
        for quantity in quantities {
            guard let field = current.values[quantity] else { continue }
            let unit = PlainWords.unit(quantity.dimension, .metric)
            let said = report.sources.compactMap { source in source.current?[quantity].map { "\(source.name) \(AirText.value($0, quantity))" } }
            var line = "\(quantity.spec.label): \(AirText.value(field.value, quantity)) \(unit); \(PlainWords.list(said))"
            if field.inputs.count > 1 {
                line += "; spread \(AirText.value(field.spreadWithoutOutliers(circular: false), quantity)) \(unit)"
                let outliers = field.outliers.map { id in report.sources.first { $0.id == id }?.name ?? id }
                if !outliers.isEmpty {
                    line += " without \(PlainWords.list(outliers)), left out as an outlier (\(AirText.value(field.spread, quantity)) with it)"
                }
            }
            lines.append(line + "." + (field.disagreement?.exceedsFloor == true && field.inputs.count > 1 ? " More apart than usual for this quantity." : ""))
        }
        for index in current.indices {
            lines.append("\(index.scale.name), computed by Isobar from the merged concentrations: \(index.value)"
                + "\(index.isBeyondScale ? " or more" : ""), \(index.category.name), driven by \(index.pollutant.spec.label).")
        }
        for source in report.sources {
            guard let own = source.current?.providerAirIndex else { continue }
            lines.append("\(source.name)'s own index: \(JSONOutput.format(own.value))\(own.category.map { ", \($0)" } ?? "") "
                + "on its \(own.scale) scale; not merged.")
        }
        for failure in report.failures { lines.append("\(failure.id) did not answer: \(failure.message).") }
        if let replays { lines.append("Air sources replayed, not live: \(replays).") }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: JSON line

    /// The `air_comparison` line: the sources' values and own indices, the merge now with its indices, and how each
    /// quantity was merged (the consensus's `merged` members).
    public func line() -> String {
        var merged: [(String, JSONOutput)] = []
        for quantity in quantities { merged.append((quantity.rawValue, Self.mergedField(report.current?.values[quantity]))) }
        return JSONLine.text("air_comparison", [
            ("place", AirLines.place(report)), ("units", AirLines.units),
            ("current", report.current.map { AirLines.moment($0, offset: report.utcOffsetSeconds) } ?? .null),
            ("sources", .array(AirLines.sources(report))), ("merged", .object(merged)),
            ("failures", .array(report.failures.map { .object([("provider", .string($0.id)), ("message", .string($0.message))]) })),
        ])
    }

    /// One quantity's merge as the consensus line writes it (`merged_field` of the schema).
    static func mergedField(_ field: MergedField?) -> JSONOutput {
        guard let field else { return .null }
        let round = { (value: Double) in JSONOutput.number(OutputNumber.round3(value)) }
        let inputs: [JSONOutput] = field.inputs.map { input in
            .object([("provider", .string(input.provider)), ("value", .number(OutputNumber.round3(input.value))),
                     ("weight", .number(input.weight)), ("origin", .string(JSONLinesRenderer.origin(input.origin))),
                     ("outlier", .bool(input.isOutlier))])
        }
        let disagreement: JSONOutput = field.disagreement.flatMap { disagreement in
            field.inputs.count >= 2 ? .object([("difference", round(disagreement.difference)), ("floor", round(disagreement.floor)),
                                               ("exceeds_floor", .bool(disagreement.exceedsFloor))]) : nil
        } ?? .null
        return .object([
            ("min", round(field.min)), ("max", round(field.max)), ("spread", round(field.spread)),
            ("mad", round(field.medianAbsoluteDeviation)), ("confidence", round(field.confidence)),
            ("providers", .array(field.inputs.filter { !$0.isOutlier }.map { .string($0.provider) })),
            ("outliers", .array(field.inputs.filter(\.isOutlier).map { .string($0.provider) })),
            ("missing", .array(field.missing.map { .string($0) })), ("inputs", .array(inputs)), ("disagreement", disagreement),
        ])
    }

    // MARK: CSV

    /// The columns after the weather's: each air quantity with its unit, each scale's index, category and pollutant, and a
    /// source's own index with its scale.
    public static var csvColumns: [String] {
        Quantity.air.map { "\($0.rawValue)_\(CSVRows.unitSuffix(UnitSystem.metric.symbol(for: $0)))" }
            + AirIndexScale.allCases.flatMap { [$0.rawValue, "\($0.rawValue)_category", "\($0.rawValue)_pollutant"] }
            + ["own_index", "own_index_scale"]
    }

    /// The rows under the weather's, `weatherColumns` cells wide before the air columns: one per source (`kind` air), then
    /// the merge (source `consensus`) with its indices.
    func csvRows(weatherColumns: Int) -> [[String?]] {
        let place = report.place
        let lead: [String?] = [place.name, place.adminArea, place.countryCode, CSVField.number(place.coordinate.latitude),
                               CSVField.number(place.coordinate.longitude)]
        func row(source: String, status: String?, time: Date?, values: [String?], indices: [String?], own: [String?]) -> [String?] {
            var cells = lead + [source, status, "air", time.map { LocalDate($0, utcOffsetSeconds: report.utcOffsetSeconds).description },
                                time.map { CivilTime.iso($0, utcOffsetSeconds: report.utcOffsetSeconds) }]
            cells += [String?](repeating: nil, count: max(0, weatherColumns - cells.count))
            return cells + values + indices + own
        }
        let noIndices = [String?](repeating: nil, count: AirIndexScale.allCases.count * 3)
        var rows = report.sources.map { source in
            let own = source.current?.providerAirIndex
            return row(source: source.id, status: ProviderOutcome(source.freshness).rawValue, time: source.current?.time,
                       values: Quantity.air.map { quantity in source.current?[quantity].map(Self.csvNumber) }, indices: noIndices,
                       own: [own.map { JSONOutput.format($0.value) }, own?.scale])
        }
        if let current = report.current {
            let indices: [String?] = AirIndexScale.allCases.flatMap { scale -> [String?] in
                let index = current.index(scale)
                return [index.map { String($0.value) }, index?.category.name, index?.pollutant.rawValue]
            }
            rows.append(row(source: "consensus", status: nil, time: current.time,
                            values: Quantity.air.map { quantity in current.values[quantity].map { Self.csvNumber($0.value) } },
                            indices: indices, own: [nil, nil]))
        }
        return rows
    }

    /// A value rounded to 3 decimals, in its shortest form.
    static func csvNumber(_ value: Double) -> String { CSVField.number((value * 1000).rounded() / 1000) }
}
