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

    /// Opens and checks the index at `path`, read whole into memory when it is at most `inMemoryUpTo` bytes.
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
        for (row, columns) in Geodesy.cells(latitude: latitude, longitude: longitude, kilometres: radius, rows: rows) {
            for hit in try entries(row: row, columns: columns) {
                let distance = Geodesy.kilometres(latitude, longitude, hit.latitude, hit.longitude)
                // Entries in a cell come most populous first, so only a strictly nearer city replaces the best.
                guard distance <= radius, distance < best?.distanceKilometres ?? .infinity else { continue }
                var found = hit
                found.distanceKilometres = distance
                best = found
            }
        }
        return best
    }

    /// The entries of the cells `columns` of `row`, each checked against its cell.
    private func entries(row: Int, columns: ClosedRange<Int>) throws(GazetteerError) -> [GridHit] {
        let first = row * GridHeader.columns + columns.lowerBound
        guard let cellBytes = file.read(at: header.cellsOffset + 4 * first, count: 4 * (columns.count + 1)) else {
            throw GridHeader.damaged(file, "a cell table row cannot be read")
        }
        let starts = (0...columns.count).map { Int(cellBytes.littleEndianUInt32(at: 4 * $0)) }
        guard zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }), let last = starts.last, last <= header.cities else {
            throw GridHeader.damaged(file, "the cell table points outside its entries")
        }
        guard last > starts[0] else { return [] }
        guard let bytes = file.read(at: header.entriesOffset + GridHeader.entryBytes * starts[0],
                                    count: GridHeader.entryBytes * (last - starts[0])) else {
            throw GridHeader.damaged(file, "entries cannot be read (truncated?)")
        }
        var hits: [GridHit] = []
        hits.reserveCapacity(last - starts[0])
        for index in 0..<(last - starts[0]) {
            let at = GridHeader.entryBytes * index
            let latitude = Double(Int32(bitPattern: bytes.littleEndianUInt32(at: at))) / 100_000
            let longitude = Double(Int32(bitPattern: bytes.littleEndianUInt32(at: at + 4))) / 100_000
            guard (-90...90).contains(latitude), (-180...180).contains(longitude), GridHeader.row(latitude) == row,
                  columns.contains(GridHeader.column(longitude)) else {
                throw GridHeader.damaged(file, "a city lies outside its cell")
            }
            hits.append(GridHit(
                latitude: latitude, longitude: longitude, lineOffset: Int(bytes.littleEndianUInt32(at: at + 8)),
                lineLength: Int(bytes.littleEndianUInt16(at: at + 12)), zone: Int(bytes.littleEndianUInt16(at: at + 14)),
                distanceKilometres: 0))
        }
        return hits
    }

    /// The name of time zone number `zone`, read from the index's zone section.
    func zoneName(_ zone: Int) throws(GazetteerError) -> String {
        guard let bytes = file.read(at: header.zonesOffset, count: header.zonesLength) else {
            throw GridHeader.damaged(file, "its time zone names cannot be read")
        }
        let names = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard zone < names.count - 1, !names[zone].isEmpty, let name = String(validating: names[zone], as: UTF8.self) else {
            throw GridHeader.damaged(file, "time zone number \(zone) is not in its zone list")
        }
        return name
    }
}
