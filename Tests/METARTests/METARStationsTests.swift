import METAR
import Testing

@Suite struct METARStationsTests {
    @Test func theBundledListIsReadAndSorted() {
        let stations = Files.stations.stations
        #expect(stations.count > 15_000)
        #expect(zip(stations, stations.dropFirst()).allSatisfy { $0.icao < $1.icao })
        let minsk = stations.first { $0.icao == "UMMS" }
        #expect(minsk?.name == "Minsk International Airport" && minsk?.countryCode == "BY")
    }

    @Test func theNearestStationsComeFirstWithTheirDistances() {
        let found = Files.stations.nearest(latitude: 53.9, longitude: 27.5667, withinKilometres: 50, limit: 5)
        #expect(found.map(\.station.icao) == ["UMLI", "UMMS", "UMMB"])
        #expect(abs(found[1].kilometres - 30.5) < 0.2)
        let newYork = Files.stations.nearest(latitude: 40.7143, longitude: -74.006, withinKilometres: 50, limit: 3)
        #expect(newYork.map(\.station.icao) == ["KLGA", "KEWR", "KTEB"])
    }

    @Test func noStationInRangeIsAnEmptyAnswer() {
        #expect(Files.stations.nearest(latitude: -40, longitude: -120, withinKilometres: 50, limit: 5).isEmpty)
        #expect(Files.stations.nearest(latitude: 53.9, longitude: 27.5667, withinKilometres: 50, limit: 0).isEmpty)
    }

    @Test func stationsAcrossTheAntimeridianAreFound() throws {
        let text = "isobar-metar-stations\t1\t2\n# comment\nAAAA\tEast\tFJ\t-16.0000\t179.9000\t0\nBBBB\tWest\tFJ\t-16.0000\t-179.9000\t0\n"
        let stations = try METARStations(text: text)
        #expect(stations.nearest(latitude: -16, longitude: 179.95, withinKilometres: 20, limit: 5).map(\.station.icao) == ["AAAA", "BBBB"])
    }

    @Test func aDamagedListIsRefusedWithTheLine() {
        let cases: [(String, String)] = [
            ("", "first line"),
            ("isobar-gazetteer\t1\t0\n", "first line"),
            ("isobar-metar-stations\t2\t0\n", "first line"),
            ("isobar-metar-stations\t1\t1\nAAAA\tName\tXX\tnorth\t0\t0\n", "line 2"),
            ("isobar-metar-stations\t1\t1\nAAAA\tName\tXX\t95\t0\t0\n", "line 2"),
            ("isobar-metar-stations\t1\t2\nAAAA\tName\tXX\t10\t10\t0\n", "promises 2 stations"),
        ]
        for (text, expected) in cases {
            #expect { try METARStations(text: text) } throws: { ($0 as? METARStationsError)?.description.contains(expected) == true }
        }
        #expect { try METARStations(path: "/nonexistent/stations.tsv") } throws: {
            ($0 as? METARStationsError)?.description == "cannot read the METAR station list /nonexistent/stations.tsv"
        }
    }
}
