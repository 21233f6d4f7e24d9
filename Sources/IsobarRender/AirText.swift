import FoundationEssentials
import IsobarCore

/// The table and the sentences of `isobar air`, from a gathered report.
public struct AirText {
    /// The report.
    public let report: AirReport
    /// The width to fit, when known.
    public let width: Int?
    /// Hours to list hour by hour (0 for none).
    public let hours: Int
    /// Days to list (0 for none).
    public let days: Int

    /// The text of `report` fitted to `width`, with `hours` hours and `days` days listed.
    public init(report: AirReport, width: Int?, hours: Int, days: Int) {
        self.report = report
        self.width = width
        self.hours = hours
        self.days = days
    }

    /// A value in its quantity's unit and precision.
    public static func value(_ value: Double, _ quantity: Quantity) -> String {
        TableRenderer.fixed(value, decimals: UnitSystem.metric.decimals(quantity.dimension))
    }

    /// `44 Good (PM2.5)`, with `500+` beyond the scale.
    public static func index(_ index: AirIndexValue) -> String {
        "\(index.value)\(index.isBeyondScale ? "+" : "") \(index.category.name) (\(index.pollutant.spec.shortLabel))"
    }

    /// A local clock time of the place.
    public func clock(_ time: Date) -> String { CivilTime.clock(time, utcOffsetSeconds: report.utcOffsetSeconds) }

    /// The people's view: indices now, the sources side by side, pollen, the next hours' worst, then hours and days if asked.
    public func table() -> String {
        var text = "Air quality in \(report.place.label)"
        if let current = report.current { text += ", \(clock(current.time)) local" }
        text += "\n\n"
        if let current = report.current, !current.indices.isEmpty {
            for index in current.indices {
                text += TextWrap.fit("\(index.scale.name): \(Self.index(index)). \(index.category.message)\n", width: width)
            }
            text += "\n"
        }
        text += sourcesTable() + "\n"
        text += pollenLine() + "\n"
        if let worst = report.worst(.usAQI, within: 12, after: report.current?.time ?? report.hourly.first?.time ?? Date()) {
            text += TextWrap.fit("Worst of the next 12 hours: \(AirIndexScale.usAQI.name) \(Self.index(worst.index)) at \(clock(worst.time)).\n", width: width)
        }
        if hours > 0 { text += "\n" + hoursTable() }
        if days > 0 { text += "\n" + daysTable() }
        let scales = AirIndexScale.allCases.map { "\($0.name), \($0.revision)" }.joined(separator: "; ")
        text += "\n" + TextWrap.fit("Indices computed by Isobar from the merged concentrations: \(scales).\n", width: width)
        for failure in report.failures { text += "\(failure.id): \(failure.message)\n" }
        return text
    }

    /// Rows per pollutant, a column per source, then the merge and its spread; the sources' own indices last.
    public func sourcesTable() -> String {
        var table = TextTable(header: ["Now"] + report.sources.map(\.name) + ["Merged", "Spread"])
        let merged = report.current?.values ?? [:]
        for quantity in report.quantities where merged[quantity] != nil || report.sources.contains(where: { $0.current?[quantity] != nil }) {
            let field = merged[quantity]
            let label = "\(quantity.spec.shortLabel) \(UnitSystem.metric.symbol(for: quantity))"
            let said: [String] = report.sources.map { source in source.current?[quantity].map { Self.value($0, quantity) } ?? "–" }
            let mergedText: String = field.map { Self.value($0.value, quantity) } ?? "–"
            // A spread needs two sources: one source's value has none to show.
            let spread: String = field.flatMap { $0.inputs.count > 1 ? Self.value($0.spread, quantity) : nil } ?? ""
            table.rows.append([label] + said + [mergedText, spread])
        }
        if report.sources.contains(where: { $0.current?.providerAirIndex != nil }) {
            let owns: [String] = report.sources.map { source in
                source.current?.providerAirIndex.map { "\(JSONOutput.format($0.value)) \($0.category ?? "")" } ?? "–"
            }
            table.rows.append(["Own index"] + owns + ["", ""])
        }
        let names = report.sources.map(\.name)
        table.narrowing = AirText.sourceColumnsNarrowing(names)
        var text = table.render(width: width)
        for source in report.sources {
            guard let own = source.current?.providerAirIndex else { continue }
            text += TextWrap.fit("Own index: \(source.name)'s, on its \(own.scale) scale; shown as given, never merged.\n", width: width)
        }
        return text
    }

    /// How a table with one column per source (after the label column, before the merged and spread ones) narrows: the
    /// sources' names become initials with a legend, then the last column goes.
    static func sourceColumnsNarrowing(_ names: [String]) -> [Narrowing] {
        var headers: [Int: String] = [:]
        var legend: [String] = []
        for (index, (name, initials)) in zip(names, Abbreviation.initials(names)).enumerated() where name != initials {
            headers[index + 1] = initials
            legend.append("\(initials) = \(name)")
        }
        return [.headers(headers, legend: legend.joined(separator: ", ")), .drop(names.count + 2)]
    }

    /// The pollen sentence: the counts now (or in the first hour that has them), or that no source gives any for the place.
    public func pollenLine(plain: Bool = false) -> String {
        guard report.hasPollen else { return "Pollen: no pollen data for this place." }
        let pollen = Quantity.air.filter { $0.spec.family == .pollen }
        let moments = (report.current.map { [$0] } ?? []) + report.hourly
        guard let moment = moments.first(where: { moment in pollen.contains { moment.values[$0] != nil } }) else {
            return "Pollen: no pollen data for this place."
        }
        let given = pollen.compactMap { quantity in
            moment.values[quantity].map { "\(quantity.spec.shortLabel.lowercased()) \(Self.value($0.value, quantity))" }
        }
        let unit = plain ? "grains per cubic metre" : "grains/m³"
        let when = moment.time == report.current?.time ? "" : " at \(clock(moment.time))"
        return "Pollen (\(unit))\(when): \(given.joined(separator: ", "))."
    }

    /// The next hours: merged PM2.5, PM10, O3 and NO2 with both indices.
    public func hoursTable() -> String {
        let shown = [Quantity.pm25, .pm10, .ozone, .nitrogenDioxide].filter(report.quantities.contains)
        var table = TextTable(header: ["Hour"] + shown.map(\.spec.shortLabel) + ["US AQI", "EAQI"])
        for moment in report.hourly.prefix(hours) {
            let values: [String] = shown.map { quantity in moment.values[quantity].map { Self.value($0.value, quantity) } ?? "–" }
            let us: String = moment.index(.usAQI).map(Self.index) ?? "–"
            let europe: String = moment.index(.europeanAQI).map { "\($0.value) \($0.category.name)" } ?? "–"
            table.rows.append([clock(moment.time)] + values + [us, europe])
        }
        table.leftAligned.formUnion([shown.count + 1, shown.count + 2])
        return table.render(width: width)
    }

    /// The days: the worst hour on each scale, and the highest pollen count.
    public func daysTable() -> String {
        var table = TextTable(header: ["Day", "Day US AQI", "Worst hour US AQI", "At", "Worst EAQI", "Pollen max"])
        for day in report.days(limit: days) {
            let us = day.worst.first { $0.index.scale == .usAQI }
            let europe = day.worst.first { $0.index.scale == .europeanAQI }
            let pollen = day.pollen.max { $0.value < $1.value }.map { "\($0.key.spec.shortLabel.lowercased()) \(Self.value($0.value, $0.key))" }
            let usText: String = us.map { Self.index($0.index) } ?? "–"
            let at: String = us.map { clock($0.time) } ?? ""
            let europeText: String = europe.map { "\($0.index.value) \($0.index.category.name)" } ?? "–"
            let pollenText: String = pollen ?? (report.hasPollen ? "0" : "no data")
            let dayText: String = day.usAQI.map(Self.index) ?? "too few hours"
            table.rows.append([PlainWords.weekday(day.date), dayText, usText, at, europeText, pollenText])
        }
        table.leftAligned.formUnion([1, 2, 4])
        // Narrow terminals lose the driving pollutants first: `92 Moderate (PM2.5)` becomes `92 Moderate`.
        table.narrowing = [.headers([2: "Worst hour"]), .cells([1, 2], loses: "driving pollutants") { cell in
            cell.firstIndex(of: "(").map { String(cell[..<$0]).trimmingTrailingSpaces() } ?? cell
        }]
        var text = table.render(width: width)
        text += TextWrap.fit("Day US AQI: on the EPA's averages (PM2.5 and PM10 over 24 hours, O3 and CO over the highest 8 hours, "
            + "NO2 and SO2 the highest hour); worst hour: each hour's values on the same breakpoints; \"too few hours\": less than the "
            + "averages need.\n", width: width)
        return text
    }

    /// Sentences for `--plain`: the indices with their words and advice, each source's values, pollen.
    public func plain() -> String {
        var lines = ["Air quality in \(report.place.label)" + (report.current.map { " at \(clock($0.time)) local time" } ?? "") + "."]
        if let current = report.current {
            for index in current.indices {
                lines.append("\(index.scale.name): \(index.value)\(index.isBeyondScale ? " or more" : ""), \(index.category.name), "
                    + "driven by \(index.pollutant.spec.label). \(index.category.message)")
            }
            for quantity in report.quantities {
                guard let field = current.values[quantity] else { continue }
                let unit = PlainWords.unit(quantity.dimension, .metric)
                let said = report.sources.compactMap { source in source.current?[quantity].map { "\(source.name) \(Self.value($0, quantity))" } }
                lines.append("\(quantity.spec.label): \(Self.value(field.value, quantity)) \(unit) merged (\(PlainWords.list(said))).")
            }
        }
        for source in report.sources {
            guard let own = source.current?.providerAirIndex else { continue }
            lines.append("\(source.name)'s own index: \(JSONOutput.format(own.value))\(own.category.map { ", \($0)" } ?? "") on its \(own.scale) scale; not merged.")
        }
        lines.append(pollenLine(plain: true))
        if let worst = report.worst(.usAQI, within: 12, after: report.current?.time ?? report.hourly.first?.time ?? Date()) {
            lines.append("The worst of the next 12 hours: \(worst.index.value), \(worst.index.category.name), at \(clock(worst.time)).")
        }
        for moment in report.hourly.prefix(hours) {
            let indices = moment.indices.map { "\($0.scale.name) \($0.value), \($0.category.name)" }
            lines.append("At \(clock(moment.time)): \(PlainWords.list(indices)).")
        }
        for day in report.days(limit: days) {
            let worst = day.worst.map { "\($0.index.scale.name) \($0.index.value), \($0.index.category.name), at \(clock($0.time))" }
            let daily = day.usAQI.map { "\(AirIndexScale.usAQI.name) of the day on the EPA's averages \($0.value), \($0.category.name), "
                + "driven by \($0.pollutant.spec.label)" } ?? "too few hours for the \(AirIndexScale.usAQI.name) of the day"
            lines.append("\(PlainWords.day(day.date)): \(daily); worst hour \(PlainWords.list(worst)).")
        }
        for failure in report.failures { lines.append("\(failure.id): \(failure.message)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
