import Foundation
import IsobarCore
@testable import IsobarPlaces
import IsobarTestKit
import Testing

@Suite("Nearby index: what a gazetteer keeps between lookups answers as a fresh read of the files does")
struct NearbyIndexTests {
    private let indexPath = Fixture.configDirectory + "/gazetteer/cities15000.grid"

    /// Coordinates on and beside cell borders (whole degrees), at the antimeridian and the poles, near cities and at sea.
    private static func coordinates() -> [Coordinate] {
        var generator = SeededGenerator(seed: 2026_1201)
        var points: [(Double, Double)] = [(53.9, 27.5667), (-16.4, -179.9), (-8.52, 179.9), (90, 0), (-90, 0), (-40, -120), (0, 0),
                                          (54, 27), (53.999999, 26.999999), (54.000001, 27.000001), (-0.0, 180), (89.99, -180)]
        for _ in 0..<150 {
            let latitude = Double(Int.random(in: -89...89, using: &generator))
            let longitude = Double(Int.random(in: -179...179, using: &generator))
            let nudge = [0, 1e-9, -1e-9, 0.5, 1e-6].randomElement(using: &generator)!
            points.append((latitude + nudge, longitude - nudge))
        }
        for _ in 0..<150 {
            points.append((Double.random(in: -90...90, using: &generator), Double.random(in: -180...180, using: &generator)))
        }
        return points.compactMap { Coordinate(latitude: $0.0, longitude: $0.1) }
    }

    /// What a gazetteer made for this one lookup says: nothing kept from an earlier one.
    private func uncached(_ coordinate: Coordinate, _ radius: Double) throws -> NearbyPlace? {
        try Gazetteer(path: Fixture.gazetteerPath, indexPath: indexPath).nearest(to: coordinate, withinKilometres: radius)
    }

    @Test func aKeptIndexAnswersAsAFreshOneIncludingAtCellBorders() throws {
        let kept = Gazetteer(path: Fixture.gazetteerPath, indexPath: indexPath)
        for coordinate in Self.coordinates() {
            for radius in [CoordinatePlace.namingRadiusKilometres, CoordinatePlace.zoneRadiusKilometres, 1000] {
                #expect(try kept.nearest(to: coordinate, withinKilometres: radius) == uncached(coordinate, radius),
                        "\(coordinate.latitude),\(coordinate.longitude) within \(radius) km")
            }
            let named = try kept.place(at: coordinate, plainName: "x")
            let fresh = try Gazetteer(path: Fixture.gazetteerPath, indexPath: indexPath).place(at: coordinate, plainName: "x")
            #expect(named == fresh)
        }
    }

    @Test func anIndexReadCellByCellAnswersAsOneReadWhole() throws {
        let whole = try NearbyIndex(indexPath: indexPath, gazetteerPath: Fixture.gazetteerPath)
        let inParts = try NearbyIndex(indexPath: indexPath, gazetteerPath: Fixture.gazetteerPath, inMemoryUpTo: 0)
        for coordinate in Self.coordinates() {
            for radius in [25.0, 300] {
                #expect(try whole.nearest(to: coordinate, withinKilometres: radius) == inParts.nearest(to: coordinate, withinKilometres: radius))
            }
        }
    }

    @Test func linesDroppedWhenTheCacheIsFullAreReadAgain() throws {
        let small = try NearbyIndex(indexPath: indexPath, gazetteerPath: Fixture.gazetteerPath, keepingLines: 2)
        for coordinate in Self.coordinates().prefix(60) + Self.coordinates().prefix(60) {
            #expect(try small.nearest(to: coordinate, withinKilometres: 300) == uncached(coordinate, 300))
        }
    }

    @Test func anIndexThatAppearsLaterIsUsedByTheNextLookup() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/late.grid"
        let gazetteer = Gazetteer(path: Fixture.gazetteerPath, indexPath: path)
        let minsk = try #require(Coordinate(latitude: 53.9, longitude: 27.5667))
        #expect(throws: GazetteerError(.missingFile, "")) { try gazetteer.nearest(to: minsk, withinKilometres: 25) }
        try FileManager.default.copyItem(atPath: indexPath, toPath: path)
        #expect(try gazetteer.nearest(to: minsk, withinKilometres: 25)?.place.name == "Minsk")
    }

    @Test func aGazetteerOfAnotherSizeIsRefusedOnEveryLookupThatNeedsALine() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let other = directory + "/other.tsv"
        try Data(contentsOf: URL(fileURLWithPath: Fixture.gazetteerPath)).dropLast().write(to: URL(fileURLWithPath: other))
        let gazetteer = Gazetteer(path: other, indexPath: indexPath)
        let minsk = try #require(Coordinate(latitude: 53.9, longitude: 27.5667))
        for _ in 0..<2 {
            #expect(throws: GazetteerError(.corruptFile, "")) { try gazetteer.nearest(to: minsk, withinKilometres: 25) }
        }
        // At sea no line is needed, so nothing is refused.
        #expect(try gazetteer.nearest(to: #require(Coordinate(latitude: -40, longitude: -120)), withinKilometres: 25) == nil)
    }
}
