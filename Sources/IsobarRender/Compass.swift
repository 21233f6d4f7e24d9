/// The 16-point compass: each point stands for a sector of 22.5° centred on its bearing, from N (349°–11° in whole
/// degrees) clockwise through NNE (12°–33°), NE (34°–56°), ENE (57°–78°), E (79°–101°), ESE (102°–123°), SE (124°–146°),
/// SSE (147°–168°), S (169°–191°), SSW (192°–213°), SW (214°–236°), WSW (237°–258°), W (259°–281°), WNW (282°–303°),
/// NW (304°–326°) to NNW (327°–348°).
public enum Compass: Sendable {
    /// The points, clockwise from north.
    public static let points = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]

    /// The point a bearing in degrees falls in (any bearing: it is taken modulo 360).
    public static func point(_ degrees: Double) -> String {
        guard degrees.isFinite else { return "?" }
        var bearing = degrees.truncatingRemainder(dividingBy: 360)
        if bearing < 0 { bearing += 360 }
        return points[Int((bearing + 11.25) / 22.5) % 16]
    }

    /// A direction as its point and whole degrees, `SW 227°`; the point is that of the degrees shown.
    public static func text(_ degrees: Double) -> String {
        guard degrees.isFinite else { return "–" }
        var whole = Int(degrees.truncatingRemainder(dividingBy: 360).rounded()) % 360
        if whole < 0 { whole += 360 }
        return "\(point(Double(whole))) \(whole)°"
    }
}
