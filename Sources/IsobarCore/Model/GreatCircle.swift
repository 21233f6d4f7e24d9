#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Coordinate {
    /// The mean Earth radius, in kilometres.
    @inlinable public static var earthRadiusKilometres: Double { 6371.0088 }

    /// Great-circle distance between two points given in degrees (haversine, on the mean radius), in kilometres.
    @inlinable
    public static func kilometres(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let φ1 = latitude1 * .pi / 180, φ2 = latitude2 * .pi / 180
        let Δφ = φ2 - φ1, Δλ = (longitude2 - longitude1) * .pi / 180
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * earthRadiusKilometres * asin(min(1, h.squareRoot()))
    }

    /// Great-circle distance to `other`, in metres.
    public func metres(to other: Coordinate) -> Double {
        Self.kilometres(latitude, longitude, other.latitude, other.longitude) * 1000
    }
}
