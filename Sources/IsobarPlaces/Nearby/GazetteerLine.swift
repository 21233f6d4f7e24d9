/// The fields of one city line read on its own from the gazetteer file, checked against the index entry that points at it.
struct GazetteerLine {
    var geonamesID: Int
    var name: String
    var countryCode: String
    var population: Int

    /// Opens the gazetteer at `path`, checking that `index` was made for it.
    static func open(_ path: String, for index: GridIndex) throws(GazetteerError) -> ByteFile {
        let gazetteer = try ByteFile(path: path, what: "the gazetteer file")
        guard gazetteer.size == index.header.gazetteerSize else {
            throw GridHeader.damaged(index.file, "it was made for another gazetteer file (\(index.header.gazetteerSize) bytes, not "
                + "\(gazetteer.size)); rebuild both with scripts/make-gazetteer.py")
        }
        return gazetteer
    }

    /// Reads the line of `hit` from `gazetteer`, opened by `open(_:for:)`.
    static func read(_ hit: GridHit, index: GridIndex, gazetteer: ByteFile) throws(GazetteerError) -> GazetteerLine {
        // The line with the line feeds around it, so a wrong offset cannot pass for a line.
        guard hit.lineOffset > 0, let bytes = gazetteer.read(at: hit.lineOffset - 1, count: hit.lineLength + 2),
              bytes.first == 0x0A, bytes.last == 0x0A else {
            throw GridHeader.damaged(index.file, "a city points at no line of the gazetteer")
        }
        let fields = bytes[1..<(bytes.count - 1)].split(separator: 0x09, omittingEmptySubsequences: false)
        guard fields.count == 10, let id = integer(fields[0]), let population = integer(fields[7]), let zone = integer(fields[8]),
              zone == hit.zone, fields[3].count == 2, !fields[1].isEmpty,
              let name = String(validating: fields[1], as: UTF8.self), let country = String(validating: fields[3], as: UTF8.self),
              let latitude = Double(String(decoding: fields[5], as: UTF8.self)), abs(latitude - hit.latitude) < 1e-5,
              let longitude = Double(String(decoding: fields[6], as: UTF8.self)), abs(longitude - hit.longitude) < 1e-5 else {
            throw GridHeader.damaged(index.file, "a city does not match its line in the gazetteer; rebuild both with scripts/make-gazetteer.py")
        }
        return GazetteerLine(geonamesID: id, name: name, countryCode: country, population: population)
    }

    /// A decimal integer of at most 12 digits.
    private static func integer(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 12, bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
