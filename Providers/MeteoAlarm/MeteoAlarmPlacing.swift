import FoundationEssentials
import IsobarCore

/// Which of a country's MeteoAlarm warnings are a place's. A warning's areas carry area codes (`EMMA_ID`) and only
/// sometimes polygons, and Isobar has no table from a place to its codes, so nothing is guessed:
/// - an area whose polygon holds the place places the warning there ("by its polygon");
/// - else an area without a polygon whose code the user configured for the place places it ("by the configured area code");
/// - else it is not the place's (an area whose polygon leaves the place out is never placed by its code).
/// A placed warning keeps only the areas that placed it. Area names are never compared with the place's region: a
/// warning area may be a district named like its region.
public struct MeteoAlarmPlacing: Sendable {
    /// The place.
    public var place: Place
    /// The area codes configured for it, as `SCHEME:VALUE`.
    public var codes: Set<String>

    /// Placing at `place` with `codes`.
    public init(place: Place, codes: Set<String>) {
        self.place = place
        self.codes = codes
    }

    /// `alert` with its area narrowed to the `areas` (its `area` blocks) that hold the place and the way that was told,
    /// or nil when none does.
    public func placed(_ alert: Alert, areas: [AlertArea]) -> Alert? {
        var placed = alert
        let byPolygon = areas.filter { !$0.polygons.isEmpty && $0.contains(place.coordinate) == true }
        if !byPolygon.isEmpty {
            placed.area = AlertArea(union: byPolygon)
            placed.placedBy = "its polygon"
            return placed
        }
        let byCode = areas.filter { $0.polygons.isEmpty && $0.codes.contains(where: codes.contains) }
        guard !byCode.isEmpty else { return nil }
        placed.area = AlertArea(union: byCode)
        let matched = byCode.flatMap(\.codes).filter(codes.contains)
        placed.placedBy = (matched.count == 1 ? "the configured area code " : "the configured area codes ") + matched.joined(separator: ", ")
        return placed
    }

    /// True for MeteoAlarm's green level (`awareness_level` 1: no particular awareness of the weather is required), which
    /// the feeds carry beside the warnings and which is not one.
    public static func isGreen(_ alert: Alert) -> Bool {
        guard let level = alert.awarenessLevel else { return false }
        return level.split(separator: ";").first.map { String($0).trimmingSpaces() } == "1"
    }
}
