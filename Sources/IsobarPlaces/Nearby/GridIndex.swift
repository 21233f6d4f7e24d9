/// A city found in the spatial index: where it is, where its line lies in the gazetteer file, and how far it is.
struct GridHit {
    var latitude: Double
    var longitude: Double
    var lineOffset: Int
    var lineLength: Int
    var zone: Int
    var distanceKilometres: Double
}

/// The nearest-city search over the spatial index, reading only the cells around the coordinate.
struct GridIndex {
    let file: ByteFile
    let header: GridHeader

    /// Opens and checks the index at `path`, read whole into memory after a few lookups when it is at most `inMemoryUpTo` bytes.
    init(path: String, inMemoryUpTo limit: Int = 0) throws(GazetteerError) {
        file = try ByteFile(path: path, what: "the place index", inMemoryUpTo: limit)
        header = try GridHeader(file)
    }

    /// The nearest city no further than `radius` km (the most populous of equally near ones), or nil.
    func nearest(latitude: Double, longitude: Double, withinKilometres asked: Double) throws(GazetteerError) -> GridHit? {
        guard asked >= 0 else { return nil }  // NaN too
        // No two points are further apart than half the circumference.
        let radius = min(asked, Geodesy.earthRadiusKilometres * .pi)
        var best: GridHit?
        let span = Geodesy.latitudeSpan(kilometres: radius)
        let rows = GridHeader.row(latitude - span)...GridHeader.row(latitude + span)
        try Geodesy.forEachCell(latitude: latitude, longitude: longitude, kilometres: radius, rows: rows) { row, columns throws(GazetteerError) in
            try forEachEntry(row: row, columns: columns) { hit in
                // No path between two points is shorter than the meridian arc between their latitudes: a city at least
                // that much further than the radius or the best so far cannot be taken, and its distance is not worked
                // out. The margins (a millionth, and a millimetre) are far wider than the rounding of either distance.
                let floor = Geodesy.meridianKilometres(latitude, hit.latitude) * (1 - 1e-6) - 1e-6
                guard floor <= radius, floor < best?.distanceKilometres ?? .infinity else { return }
                let distance = Geodesy.kilometres(latitude, longitude, hit.latitude, hit.longitude)
                // Entries in a cell come most populous first, so only a strictly nearer city replaces the best.
                guard distance <= radius, distance < best?.distanceKilometres ?? .infinity else { return }
                var found = hit
                found.distanceKilometres = distance
                best = found
            }
        }
        return best
    }

    /// Calls `visit` with each entry of the cells `columns` of `row`, each checked against its cell, read in place.
    private func forEachEntry(row: Int, columns: ClosedRange<Int>, _ visit: (GridHit) -> Void) throws(GazetteerError) {
        let first = row * GridHeader.columns + columns.lowerBound
        let span = try file.withBytes(at: header.cellsOffset + 4 * first, count: 4 * (columns.count + 1)) { cells throws(GazetteerError) in
            var previous = 0
            for index in 0...columns.count {
                let start = Int(cells.littleEndianUInt32(at: 4 * index))
                guard start >= previous || index == 0 else { throw GridHeader.damaged(file, "the cell table points outside its entries") }
                previous = start
            }
            return (Int(cells.littleEndianUInt32(at: 0)), previous)
        }
        guard let (start, end) = span else { throw GridHeader.damaged(file, "a cell table row cannot be read") }
        guard end <= header.cities else { throw GridHeader.damaged(file, "the cell table points outside its entries") }
        guard end > start else { return }
        let read: Void? = try file.withBytes(at: header.entriesOffset + GridHeader.entryBytes * start,
                                             count: GridHeader.entryBytes * (end - start)) { bytes throws(GazetteerError) in
            for index in 0..<(end - start) {
                let at = GridHeader.entryBytes * index
                let latitude = Double(Int32(bitPattern: bytes.littleEndianUInt32(at: at))) / 100_000
                let longitude = Double(Int32(bitPattern: bytes.littleEndianUInt32(at: at + 4))) / 100_000
                guard (-90...90).contains(latitude), (-180...180).contains(longitude), GridHeader.row(latitude) == row,
                      columns.contains(GridHeader.column(longitude)) else {
                    throw GridHeader.damaged(file, "a city lies outside its cell")
                }
                visit(GridHit(
                    latitude: latitude, longitude: longitude, lineOffset: Int(bytes.littleEndianUInt32(at: at + 8)),
                    lineLength: Int(bytes.littleEndianUInt16(at: at + 12)), zone: Int(bytes.littleEndianUInt16(at: at + 14)),
                    distanceKilometres: 0))
            }
        }
        guard read != nil else { throw GridHeader.damaged(file, "entries cannot be read (truncated?)") }
    }

    /// The name of time zone number `zone`, read from the index's zone section.
    func zoneName(_ zone: Int) throws(GazetteerError) -> String {
        guard let bytes = file.read(at: header.zonesOffset, count: header.zonesLength) else {
            throw GridHeader.damaged(file, "its time zone names cannot be read")
        }
        // One name a line, each ended by a newline: the line is found by counting newlines, without splitting the list.
        let file = file
        func missing() -> GazetteerError { GridHeader.damaged(file, "time zone number \(zone) is not in its zone list") }
        guard zone >= 0 else { throw missing() }
        var start = bytes.startIndex
        for _ in 0..<zone {
            guard let newline = bytes[start...].firstIndex(of: 0x0A) else { throw missing() }
            start = newline + 1
        }
        guard let end = bytes[start...].firstIndex(of: 0x0A), end > start,
              let name = String(validating: bytes[start..<end], as: UTF8.self) else { throw missing() }
        return name
    }
}
