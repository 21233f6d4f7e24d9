/// Where an alert applies: a description for people, polygons, and area codes (`UGC:NYZ072`, `EMMA_ID:NO001`).
public struct AlertArea: Sendable, Equatable {
    /// The area in words (CAP `areaDesc`).
    public var description: String?
    /// Closed rings of coordinates; empty when the source gives none (zone-based alerts).
    public var polygons: [[Coordinate]]
    /// Area codes as `SCHEME:VALUE`.
    public var codes: [String]

    /// Creates an area.
    public init(description: String? = nil, polygons: [[Coordinate]] = [], codes: [String] = []) {
        self.description = description
        self.polygons = polygons
        self.codes = codes
    }

    /// The union of `areas`: their polygons and codes, their descriptions joined with `; `.
    public init(union areas: [AlertArea]) {
        let descriptions = areas.compactMap(\.description)
        self.init(description: descriptions.isEmpty ? nil : descriptions.joined(separator: "; "), polygons: areas.flatMap(\.polygons),
                  codes: areas.flatMap(\.codes))
    }

    /// Whether the area holds `coordinate`: decided by its polygons when it has any, else by its codes against the place's
    /// codes when both are known; nil when it cannot be told (codes only, and the place's codes are not known).
    public func contains(_ coordinate: Coordinate, placeCodes: Set<String>? = nil) -> Bool? {
        if !polygons.isEmpty { return polygons.contains { AlertPolygon.contains($0, coordinate) } }
        if let placeCodes, !codes.isEmpty { return codes.contains { placeCodes.contains($0) } }
        return nil
    }
}

/// Point-in-polygon on longitude and latitude, for rings that may cross the antimeridian.
public enum AlertPolygon {
    /// True when `point` lies inside `ring` (even-odd rule). A ring whose consecutive points jump more than 180° in
    /// longitude is read as crossing the antimeridian: its longitudes are unwrapped into one continuous run, and the point
    /// is tested at its longitude and 360° either side.
    public static func contains(_ ring: [Coordinate], _ point: Coordinate) -> Bool {
        guard ring.count >= 3 else { return false }
        var unwrapped: [(x: Double, y: Double)] = []
        unwrapped.reserveCapacity(ring.count)
        var shift = 0.0
        for (index, corner) in ring.enumerated() {
            if index > 0 {
                let step = corner.longitude - ring[index - 1].longitude
                if step > 180 { shift -= 360 } else if step < -180 { shift += 360 }
            }
            unwrapped.append((corner.longitude + shift, corner.latitude))
        }
        return [point.longitude, point.longitude + 360, point.longitude - 360].contains { inside(unwrapped, x: $0, y: point.latitude) }
    }

    /// The even-odd ray cast on plane coordinates.
    private static func inside(_ ring: [(x: Double, y: Double)], x: Double, y: Double) -> Bool {
        var inside = false
        var previous = ring[ring.count - 1]
        for corner in ring {
            if (corner.y > y) != (previous.y > y) {
                let crossing = (previous.x - corner.x) * (y - corner.y) / (previous.y - corner.y) + corner.x
                if x < crossing { inside.toggle() }
            }
            previous = corner
        }
        return inside
    }
}
