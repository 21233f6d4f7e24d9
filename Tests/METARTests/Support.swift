import FoundationEssentials
import IsobarCore
import METAR
import Testing

/// Files of this test target and of the package, found from this file's path.
enum Files {
    /// The package root: this file is `<root>/Tests/METARTests/Support.swift`.
    static let packageRoot: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The bundled station list.
    static let stations: METARStations = {
        do { return try METARStations(path: "\(packageRoot)/config/stations/metar-stations.tsv") } catch {
            fatalError("the bundled station list cannot be read: \(error)")
        }
    }()

    /// A recorded answer of the Aviation Weather Center under `Tests/METARTests/Fixtures`.
    static func fixture(_ name: String) throws -> String {
        let path = "\(packageRoot)/Tests/METARTests/Fixtures/\(name).json"
        let data = try #require(FileManager.default.contents(atPath: path), "no fixture \(path)")
        return try #require(String(data: data, encoding: .utf8))
    }
}

/// A place for tests.
func place(_ name: String, _ latitude: Double, _ longitude: Double) -> Place {
    Place(name: name, coordinate: Coordinate(latitude: latitude, longitude: longitude)!)
}

/// Minsk and New York, where the fixtures were recorded.
let minsk = place("Minsk", 53.9, 27.5667)
let newYork = place("New York", 40.7143, -74.006)
