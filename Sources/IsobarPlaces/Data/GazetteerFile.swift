import FoundationEssentials

/// Reads the gazetteer file written by `scripts/make-gazetteer.py` (format described there).
enum GazetteerFile {
    /// The format version this reader understands.
    static let formatVersion = 1
    /// The first field of the header line.
    static let magic = "isobar-gazetteer"

    /// Reads and parses the file at `path`.
    static func load(path: String) throws(GazetteerError) -> GazetteerData {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw GazetteerError(.missingFile, "the gazetteer file \(path) does not exist (make it with scripts/make-gazetteer.py)")
        }
        guard !isDirectory else { throw GazetteerError(.unreadableFile, "the gazetteer file \(path) is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GazetteerError(.unreadableFile, "the gazetteer file \(path) cannot be read")
        }
        return try parse(bytes: [UInt8](data), file: path)
    }

    /// Parses gazetteer bytes; `file` names them in errors.
    static func parse(bytes: [UInt8], file: String) throws(GazetteerError) -> GazetteerData {
        let parsed = bytes.withUnsafeBufferPointer { buffer -> Result<Tables, GazetteerError> in
            var parser = GazetteerParser(cursor: LineCursor(buffer), file: file)
            do throws(GazetteerError) {
                return .success(try parser.parse())
            } catch {
                return .failure(error)
            }
        }
        let tables = try parsed.get()
        return GazetteerData(
            bytes: bytes, countries: tables.countries, admins: tables.admins, zones: tables.zones, cities: tables.cities,
            names: tables.names, sorted: tables.sorted,
            qualifiers: QualifierTable(countries: tables.countries, admins: tables.admins))
    }

    /// What the parser finds, before it is joined with the bytes.
    struct Tables {
        var countries: [CountryRecord] = []
        var admins: [AdminRecord] = []
        var zones: [String] = []
        var cities: [CityRecord] = []
        var names: [NameRecord] = []
        var sorted: [UInt32] = []
    }
}
