import FoundationEssentials
import IsobarCore

/// The time axis under a chart: the baseline, hours of the local clock, and the local days they fall on.
public struct ChartTimeAxis: Sendable {
    /// Each charted hour: its instant and the zone's UTC offset then.
    public let hours: [(time: Date, utcOffsetSeconds: Int)]
    /// How the hours spread over the columns.
    public let columns: ChartColumns

    /// Hours apart the hour labels are: the shortest of 3, 6, 12 and 24 hours leaving at least 5 columns between them.
    public var labelInterval: Int {
        [3, 6, 12, 24].first { $0 * columns.columnsPerHour / columns.hoursPerColumn >= 5 } ?? 24
    }

    /// The baseline, the hour labels (`00`, `06`, `12`, `18`) and the day labels (`Sun 29`), behind `indent` cells.
    public func lines(indent: Int, glyphs: ChartGlyphs) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let baseline = pad + String(glyphs.corner) + String(repeating: glyphs.baseline, count: columns.count)
        var hourLabels: [(column: Int, text: String)] = []
        var dayLabels: [(column: Int, text: String)] = []
        for (index, hour) in hours.enumerated() {
            let clock = CivilTime.clock(hour.time, utcOffsetSeconds: hour.utcOffsetSeconds)
            guard let hourOfDay = Int(clock.prefix(2)), clock.hasSuffix(":00") else { continue }
            let column = columns.column(ofHour: index)
            if hourOfDay % labelInterval == 0 { hourLabels.append((column, String(clock.prefix(2)))) }
            let date = LocalDate(hour.time, utcOffsetSeconds: hour.utcOffsetSeconds)
            if index == 0 || hourOfDay == 0 { dayLabels.append((column, "\(date.weekdayName) \(date.components.day)")) }
        }
        return [baseline, pad + " " + Self.place(hourLabels, limit: columns.count), pad + " " + Self.place(dayLabels, limit: columns.count)]
    }

    /// Labels at their columns, each left out when it would touch the one before or go past `limit` columns; a first
    /// label too close to the next one keeps its first word (`Sat`) when that fits, else gives way.
    public static func place(_ labels: [(column: Int, text: String)], limit: Int) -> String {
        var labels = labels.filter { $0.column + $0.text.count <= limit }
        if labels.count > 1, labels[0].column + labels[0].text.count >= labels[1].column {
            let word = String(labels[0].text.prefix { $0 != " " })
            if word != labels[0].text && labels[0].column + word.count < labels[1].column {
                labels[0].text = word
            } else {
                labels.removeFirst()
            }
        }
        var line = ""
        for label in labels where label.column >= (line.isEmpty ? 0 : line.count + 1) {
            line += String(repeating: " ", count: label.column - line.count) + label.text
        }
        return line
    }
}
