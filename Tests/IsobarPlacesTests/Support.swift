import Foundation
import IsobarPlaces

/// The bundled gazetteer, read once and shared by the tests.
enum Fixture {
    /// `config/` of this checkout.
    static let configDirectory: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("config").path
    }()

    /// The bundled gazetteer file.
    static let gazetteerPath = configDirectory + "/gazetteer/" + Gazetteer.fileName

    /// One gazetteer over the bundled file for every search test.
    static let gazetteer = Gazetteer(dataDirectory: configDirectory)

    /// A fresh directory for files a test writes.
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "isobar-places-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The first `count` lines of a search as `Name|CC|admin1 code|kind`, for readable expectations.
    static func labels(_ text: String, limit: Int = 10) throws -> [String] {
        try gazetteer.search(text, limit: limit).map { "\($0.place.name)|\($0.place.countryCode ?? "")|\($0.adminCode)|\($0.kind)" }
    }
}
