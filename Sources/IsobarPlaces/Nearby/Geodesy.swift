#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import IsobarCore

/// Distances on the sphere and the cells a circle covers.
public enum Geodesy {
    /// The mean Earth radius, in kilometres.
    static let earthRadiusKilometres = Coordinate.earthRadiusKilometres

    /// Great-circle distance between two coordinates in degrees (haversine), in kilometres.
    public static func kilometres(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        Coordinate.kilometres(latitude1, longitude1, latitude2, longitude2)
    }

    /// The length of the meridian arc between two latitudes in degrees, in kilometres: no great circle between points at
    /// those latitudes is shorter.
    static func meridianKilometres(_ latitude1: Double, _ latitude2: Double) -> Double {
        abs(latitude2 - latitude1) * .pi / 180 * earthRadiusKilometres
    }

    /// Degrees of latitude in `kilometres`.
    static func latitudeSpan(kilometres: Double) -> Double { kilometres / earthRadiusKilometres * 180 / .pi }

    /// Calls `visit` for each row in `rows` with the columns (one or two ranges, split at the antimeridian) of the cells
    /// that can hold a point within `kilometres` of the coordinate: the whole row when the circle reaches a pole.
    static func forEachCell(latitude: Double, longitude: Double, kilometres: Double, rows: ClosedRange<Int>,
                            _ visit: (Int, ClosedRange<Int>) throws(GazetteerError) -> Void) throws(GazetteerError) {
        let span = latitudeSpan(kilometres: kilometres)
        let all = 0...(GridHeader.columns - 1)
        // At most two ranges of columns: across the antimeridian the circle's columns wrap around.
        var ranges: (ClosedRange<Int>, ClosedRange<Int>?) = (all, nil)
        let reach = sin(span * .pi / 180) / cos(latitude * .pi / 180)
        if abs(latitude) + span < 90, reach < 1 {
            // The widest longitude difference on the circle (a little more, for rounding).
            let spread = asin(reach) * 180 / .pi + 1e-6
            let west = Int((longitude - spread + 180).rounded(.down))
            let east = Int((longitude + spread + 180).rounded(.down))
            if east - west < GridHeader.columns - 1 {
                if west < 0 {
                    ranges = ((west + GridHeader.columns)...(GridHeader.columns - 1), 0...east)
                } else if east >= GridHeader.columns {
                    ranges = (west...(GridHeader.columns - 1), 0...(east - GridHeader.columns))
                } else {
                    ranges = (west...east, nil)
                }
            }
        }
        for row in rows {
            try visit(row, ranges.0)
            if let second = ranges.1 { try visit(row, second) }
        }
    }
}
