import FoundationEssentials
import IsobarCore
import IsobarRender

/// The "Air" line under the `now` and home views: the US AQI now and the worst of the next 12 hours, with their hours.
enum AirGlance {
    /// The line, or nil when no index could be computed (no air source answered).
    static func line(_ report: AirReport, plain: Bool) -> String? {
        let text = AirText(report: report, width: nil, hours: 0, days: 0)
        let now = report.current?.index(.usAQI)
        let start = report.current?.time ?? report.hourly.first?.time
        let worst = start.flatMap { report.worst(.usAQI, within: 12, after: $0) }
        guard now != nil || worst != nil else { return nil }
        var parts: [String] = []
        if let now {
            parts.append(plain ? "\(now.value), \(now.category.name), now" : "\(AirText.index(now)) now")
        }
        if let worst {
            let hour = text.clock(worst.time)
            parts.append(plain ? "at worst \(worst.index.value), \(worst.index.category.name), at \(hour) in the next 12 hours"
                : "worst of the next 12 hours \(AirText.index(worst.index)) at \(hour)")
        }
        let scale = AirIndexScale.usAQI.name
        return plain ? "Air quality, \(scale): \(parts.joined(separator: "; ")).\n" : "Air: \(scale) \(parts.joined(separator: "; ")).\n"
    }
}
