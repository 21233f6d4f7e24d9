/// The first 64 bytes of the spatial index written by `scripts/make-gazetteer.py` (format described there), checked.
struct GridHeader {
    static let magic: [UInt8] = Array("ISOBGRID".utf8)
    static let version: UInt32 = 1
    static let byteCount = 64
    static let rows = 180
    static let columns = 360
    static let entryBytes = 16

    let cities: Int
    let gazetteerSize: Int
    let zonesOffset: Int
    let zonesLength: Int
    let cellsOffset: Int
    let entriesOffset: Int

    /// The header of `file`, or a `corruptFile` error saying what is wrong.
    init(_ file: ByteFile) throws(GazetteerError) {
        guard let bytes = file.read(at: 0, count: Self.byteCount) else {
            throw GridHeader.damaged(file, "it is shorter than its \(Self.byteCount)-byte header (truncated?)")
        }
        guard Array(bytes[0..<8]) == Self.magic else {
            throw GridHeader.damaged(file, "not an Isobar place index (it should start with 'ISOBGRID')")
        }
        let fields = (0..<10).map { Int(bytes.littleEndianUInt32(at: 8 + 4 * $0)) }
        guard fields[0] == Self.version else {
            throw GridHeader.damaged(file, "format version \(fields[0]) is not the supported version \(Self.version); "
                + "rebuild it with scripts/make-gazetteer.py")
        }
        guard fields[1] == Self.rows, fields[2] == Self.columns else { throw GridHeader.damaged(file, "the grid is not 180 × 360 cells") }
        cities = fields[3]
        gazetteerSize = fields[4]
        zonesOffset = fields[5]
        zonesLength = fields[6]
        cellsOffset = fields[7]
        entriesOffset = fields[8]
        guard fields[9] == file.size else {
            throw GridHeader.damaged(file, "it is \(file.size) bytes long; its header says \(fields[9]) (truncated?)")
        }
        // The sections follow one another in order and end exactly at the end of the file.
        guard zonesOffset >= Self.byteCount, zonesLength <= 1 << 20, zonesOffset + zonesLength <= cellsOffset,
              cellsOffset + 4 * (Self.rows * Self.columns + 1) == entriesOffset,
              entriesOffset + Self.entryBytes * cities == file.size else {
            throw GridHeader.damaged(file, "its sections do not fit together")
        }
    }

    /// The cell holding a coordinate's row or column: latitude 90 and longitude 180 fall in the last ones.
    static func row(_ latitude: Double) -> Int { min(rows - 1, max(0, Int((latitude + 90).rounded(.down)))) }

    /// See `row(_:)`.
    static func column(_ longitude: Double) -> Int { min(columns - 1, max(0, Int((longitude + 180).rounded(.down)))) }

    /// A `corruptFile` error for `file`.
    static func damaged(_ file: ByteFile, _ problem: String) -> GazetteerError {
        GazetteerError(.corruptFile, "the place index \(file.path) is damaged: \(problem)")
    }
}
