/// Where a provider has data: anywhere, or inside a box of degrees.
public enum Coverage: Sendable, Equatable {
    /// Anywhere.
    case global
    /// Inside a box of degrees: south, west, north, east (west above east crosses the antimeridian).
    case box(south: Double, west: Double, north: Double, east: Double)

    /// True when `coordinate` lies inside.
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard case .box(let south, let west, let north, let east) = self else { return true }
        guard (south...north).contains(coordinate.latitude) else { return false }
        return west <= east ? (west...east).contains(coordinate.longitude) : coordinate.longitude >= west || coordinate.longitude <= east
    }

    /// `latitudes south…north, longitudes west…east` for a box, nil for the globe.
    public var text: String? {
        guard case .box(let south, let west, let north, let east) = self else { return nil }
        return "latitudes \(JSONOutput.format(south))…\(JSONOutput.format(north)), longitudes \(JSONOutput.format(west))…\(JSONOutput.format(east))"
    }
}
