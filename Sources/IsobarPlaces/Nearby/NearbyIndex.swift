import IsobarCore

/// The spatial index and the gazetteer lines one gazetteer has read, kept for its next lookups: a batch names thousands of
/// coordinates, most of them near the same cities, so each cell, line and zone name is read once, not once per lookup.
///
/// What it keeps is the files as they were when read; a process that runs on after they are rebuilt keeps what it read.
final class NearbyIndex {
    /// An index of at most this many bytes is read whole, once, after the first few lookups (the bundled one is under a
    /// megabyte; one lookup reads a few cells); a larger one is read cell by cell at each lookup.
    static let inMemoryLimit = 16 << 20
    /// Gazetteer lines kept at most; when full, the kept lines are dropped and read again as needed.
    static let keptLines = 4096

    /// Where a city's line lies and what the index says of it: a line is kept for exactly the entry it was checked against.
    private struct LineKey: Hashable {
        var offset: Int
        var length: Int
        var zone: Int
        var latitude: Double
        var longitude: Double
    }

    private let index: GridIndex
    private let gazetteerPath: String
    private let keptLines: Int
    private var gazetteer: ByteFile?
    private var zoneNames: [Int: String] = [:]
    private var lines: [LineKey: GazetteerLine] = [:]

    /// Opens and checks the index at `indexPath` (read whole after a few lookups when at most `inMemoryUpTo` bytes); the gazetteer at
    /// `gazetteerPath` is opened on the first line read, and at most `keepingLines` of its lines are kept.
    init(indexPath: String, gazetteerPath: String, inMemoryUpTo limit: Int = inMemoryLimit, keepingLines: Int = keptLines) throws(GazetteerError) {
        index = try GridIndex(path: indexPath, inMemoryUpTo: limit)
        self.gazetteerPath = gazetteerPath
        keptLines = max(1, keepingLines)
    }

    /// The nearest city no further than `radius` km from `coordinate` (see `Gazetteer.nearest(to:withinKilometres:)`).
    func nearest(to coordinate: Coordinate, withinKilometres radius: Double) throws(GazetteerError) -> NearbyPlace? {
        guard let hit = try index.nearest(latitude: coordinate.latitude, longitude: coordinate.longitude, withinKilometres: radius) else {
            return nil
        }
        let line = try line(of: hit)
        guard let location = Coordinate(latitude: hit.latitude, longitude: hit.longitude) else {
            throw GridHeader.damaged(index.file, "a city has coordinates out of range")
        }
        let place = Place(name: line.name, countryCode: line.countryCode, coordinate: location, timeZoneIdentifier: try zoneName(hit.zone))
        return NearbyPlace(place: place, distanceKilometres: hit.distanceKilometres, population: line.population, geonamesID: line.geonamesID)
    }

    private func line(of hit: GridHit) throws(GazetteerError) -> GazetteerLine {
        let key = LineKey(offset: hit.lineOffset, length: hit.lineLength, zone: hit.zone, latitude: hit.latitude, longitude: hit.longitude)
        if let kept = lines[key] { return kept }
        let file: ByteFile
        if let gazetteer {
            file = gazetteer
        } else {
            file = try GazetteerLine.open(gazetteerPath, for: index)
            gazetteer = file
        }
        let line = try GazetteerLine.read(hit, index: index, gazetteer: file)
        if lines.count >= keptLines { lines.removeAll(keepingCapacity: true) }
        lines[key] = line
        return line
    }

    private func zoneName(_ zone: Int) throws(GazetteerError) -> String {
        if let kept = zoneNames[zone] { return kept }
        let name = try index.zoneName(zone)
        zoneNames[zone] = name
        return name
    }
}
