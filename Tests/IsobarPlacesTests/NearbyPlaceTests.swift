import Foundation
import IsobarCore
@testable import IsobarPlaces
import IsobarTestKit
import Testing

@Suite("Nearest place: coordinates named after a city close by, from the spatial index")
struct NearbyPlaceTests {
    let gazetteer = Fixture.gazetteer

    private func coordinate(_ latitude: Double, _ longitude: Double) throws -> Coordinate {
        try #require(Coordinate(latitude: latitude, longitude: longitude))
    }

    @Test func minskCentreIsNearMinsk() throws {
        let near = try #require(try gazetteer.nearest(to: coordinate(53.9, 27.5667), withinKilometres: 25))
        #expect(near.place.name == "Minsk")
        #expect(near.place.countryCode == "BY")
        #expect(near.place.timeZoneIdentifier == "Europe/Minsk")
        #expect(near.geonamesID == 625144)
        #expect(near.distanceKilometres < 1)
        let named = try gazetteer.place(at: coordinate(53.9, 27.5667), plainName: "53.9,27.5667")
        #expect(named.place.name == "near Minsk")
        #expect(named.place.label == "near Minsk, BY")
        #expect(named.place.timeZoneIdentifier == "Europe/Minsk")
        #expect(named.place.coordinate == (try coordinate(53.9, 27.5667)))
    }

    @Test func readingANearbyPlaceDoesNotLoadTheGazetteer() throws {
        let fresh = Gazetteer(path: Fixture.gazetteerPath)
        _ = try fresh.place(at: coordinate(48.8566, 2.3522), plainName: "48.8566,2.3522")
        #expect(!fresh.isLoaded)
    }

    @Test func aPointAtSeaKeepsItsPlainNameAndNoZone() throws {
        #expect(try gazetteer.nearest(to: coordinate(-40, -120), withinKilometres: CoordinatePlace.zoneRadiusKilometres) == nil)
        let named = try gazetteer.place(at: coordinate(-40, -120), plainName: "-40,-120")
        #expect(named.place.name == "-40,-120")
        #expect(named.place.countryCode == nil)
        #expect(named.place.timeZoneIdentifier == nil)
        #expect(named.nearest == nil)
    }

    @Test func beyondTheNamingRadiusTheZoneStillComesFromTheNearestCity() throws {
        // 80 km east of Labasa, Fiji, across the antimeridian.
        let named = try gazetteer.place(at: coordinate(-16.4, -179.9), plainName: "-16.4,-179.9")
        #expect(named.place.name == "-16.4,-179.9")
        #expect(named.place.countryCode == nil)
        #expect(named.place.timeZoneIdentifier == "Pacific/Fiji")
        let nearest = try #require(named.nearest)
        #expect(nearest.place.name == "Labasa")
        #expect(nearest.distanceKilometres > CoordinatePlace.namingRadiusKilometres)
        #expect(nearest.distanceKilometres < 100)
    }

    @Test func nearTheAntimeridianBothSidesAreSearched() throws {
        // Funafuti is at 179.19° E; from 179.9° W it is about 100 km west, across the antimeridian.
        let west = try #require(try gazetteer.nearest(to: coordinate(-8.52, -179.9), withinKilometres: 300))
        #expect(west.place.name == "Funafuti")
        let east = try #require(try gazetteer.nearest(to: coordinate(-8.52, 179.9), withinKilometres: 300))
        #expect(east.place.name == "Funafuti")
        #expect(abs(west.distanceKilometres - east.distanceKilometres) > 10)
    }

    @Test func nearThePolesNothingIsCloseAndWholeRowsAreSearched() throws {
        #expect(try gazetteer.place(at: coordinate(90, 0), plainName: "90,0").place.timeZoneIdentifier == nil)
        #expect(try gazetteer.place(at: coordinate(-90, 0), plainName: "-90,0").place.timeZoneIdentifier == nil)
        #expect(try gazetteer.place(at: coordinate(-89.99, 180), plainName: "-89.99,180").nearest == nil)
        // Svalbard's capital is the gazetteer's northernmost city; from near the pole the circle covers every longitude.
        let north = try #require(try gazetteer.nearest(to: coordinate(89.5, -100), withinKilometres: 2000))
        #expect(north.place.name == "Longyearbyen")
        #expect(north.place.timeZoneIdentifier == "Arctic/Longyearbyen")
        let south = try #require(try gazetteer.nearest(to: coordinate(-89.9, 0), withinKilometres: 5000))
        #expect(south.distanceKilometres <= 5000)
    }

    @Test func theIndexFindsWhatABruteForceSearchFinds() throws {
        let data = try GazetteerFile.load(path: Fixture.gazetteerPath)
        var generator = SeededGenerator(seed: 16_004)
        for round in 0..<150 {
            // Half the points anywhere, half within a degree of a random city, and radii from 5 to 600 km.
            let anchor = data.cities[Int.random(in: 0..<data.cities.count, using: &generator)]
            let latitude = round.isMultiple(of: 2) ? Double.random(in: -90...90, using: &generator)
                : max(-90, min(90, anchor.latitude + Double.random(in: -1...1, using: &generator)))
            var longitude = round.isMultiple(of: 2) ? Double.random(in: -180...180, using: &generator)
                : anchor.longitude + Double.random(in: -1...1, using: &generator)
            if longitude > 180 { longitude -= 360 }
            if longitude < -180 { longitude += 360 }
            let radius = [5.0, 25, 100, 300, 600][round % 5]
            let expected = data.cities.map { Geodesy.kilometres(latitude, longitude, $0.latitude, $0.longitude) }.filter { $0 <= radius }.min()
            let found = try gazetteer.nearest(to: coordinate(latitude, longitude), withinKilometres: radius)
            #expect(found?.distanceKilometres.rounded(toPlaces: 6) == expected?.rounded(toPlaces: 6), "\(latitude),\(longitude) within \(radius) km")
        }
    }
}

extension Double {
    /// The value rounded to `places` decimals.
    fileprivate func rounded(toPlaces places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}
