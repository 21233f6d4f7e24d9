import IsobarCore
import IsobarPlaces
import Testing

@Suite("PlaceQuery parsing and input checks")
struct PlaceQueryTests {
    @Test(arguments: [
        ("53.9,27.57", 53.9, 27.57), ("53.9, 27.57", 53.9, 27.57), ("-23.5,-46.6", -23.5, -46.6), (" 0,0 ", 0.0, 0.0),
        ("90,180", 90.0, 180.0), ("-90,-180", -90.0, -180.0), ("+51.5,-0.1275", 51.5, -0.1275),
    ])
    func coordinates(text: String, latitude: Double, longitude: Double) throws {
        #expect(try PlaceQuery.parse(text) == .coordinate(try #require(Coordinate(latitude: latitude, longitude: longitude))))
    }

    @Test(arguments: [
        ("91,0", "latitude 91 is out of range (−90 to 90)"), ("-90.5, 10", "latitude -90.5 is out of range (−90 to 90)"),
        ("10,181", "longitude 181 is out of range (−180 to 180)"), ("0, -200.25", "longitude -200.25 is out of range (−180 to 180)"),
    ])
    func coordinatesOutOfRange(text: String, message: String) {
        #expect(throws: GazetteerError(.invalidCoordinate, message)) { try PlaceQuery.parse(text) }
        do {
            _ = try PlaceQuery.parse(text)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test(arguments: ["53.9", "53.9,abc", "53.9,27.5,1", "1e999,0", "53.9,", "53,9,27,57", "12-3,4"])
    func notCoordinatePairs(text: String) {
        #expect(throws: GazetteerError(.invalidCoordinate, "")) { try PlaceQuery.parse(text) }
    }

    @Test func namesWithQualifiers() throws {
        #expect(try PlaceQuery.parse("  Paris , TX ") == .name(NameQuery(name: "Paris", qualifiers: ["TX"])))
        #expect(try PlaceQuery.parse("Springfield, Illinois, US") == .name(NameQuery(name: "Springfield", qualifiers: ["Illinois", "US"])))
        #expect(try PlaceQuery.parse("Paris,") == .name(NameQuery(name: "Paris")))
        #expect(try PlaceQuery.parse("6th of October") == .name(NameQuery(name: "6th of October")))
        #expect(try PlaceQuery.parse("abc,def") == .name(NameQuery(name: "abc", qualifiers: ["def"])))
        #expect(try PlaceQuery.parse("\u{3000}Paris\u{A0}, \u{2003}TX ") == .name(NameQuery(name: "Paris", qualifiers: ["TX"])))
    }

    @Test(arguments: ["", "   ", "\u{3000}"])
    func emptyIsRefused(text: String) {
        #expect(throws: GazetteerError(.invalidQuery, "")) { try PlaceQuery.parse(text) }
    }

    @Test(arguments: ["M", " x ", "é", "--", "M, US", "東"])
    func underTwoCharactersIsRefused(text: String) throws {
        do {
            _ = try PlaceQuery.parse(text)
            Issue.record("'\(text)' was accepted")
        } catch {
            #expect(error.code == .invalidQuery)
            #expect(error.message.contains("at least 2 characters"))
        }
    }

    @Test func theLengthLimitCountsCharactersNotBytes() throws {
        let longest = String(repeating: "é", count: PlaceQuery.maximumLength)
        #expect(try PlaceQuery.parse(longest) == .name(NameQuery(name: longest)))
        let refused = #expect(throws: GazetteerError.self) { try PlaceQuery.parse(longest + "é") }
        #expect(refused?.code == .invalidQuery)
        #expect(refused?.message == "the place is too long (201 characters; at most 200)")
    }

    @Test func aNumberJoinedByACombiningMarkIsAName() throws {
        #expect(try PlaceQuery.parse("53.9\u{301},27.5") == .name(NameQuery(name: "53.9\u{301}", qualifiers: ["27.5"])))
        #expect(try PlaceQuery.parse("5e1,-2.5E1") == .coordinate(try #require(Coordinate(latitude: 50, longitude: -25))))
        let refused = #expect(throws: GazetteerError.self) { try PlaceQuery.parse("53.9,27.5\u{301}") }
        #expect(refused?.code == .invalidCoordinate)
    }

    @Test func tenKilobytesAreRefused() {
        let text = String(repeating: "Minsk ", count: 1_700)
        do {
            _ = try PlaceQuery.parse(text)
            Issue.record("10 KB accepted")
        } catch {
            #expect(error.code == .invalidQuery)
            #expect(error.message.contains("too long"))
        }
        #expect(throws: GazetteerError(.invalidQuery, "")) { try Fixture.gazetteer.search(text) }
    }

    @Test(arguments: ["Min\u{0}sk", "Minsk\n", "Min\tsk", "\u{1B}[31mMinsk", "Minsk\u{7F}", "Minsk\u{85}"])
    func controlCharactersAreRefused(text: String) {
        #expect(throws: GazetteerError(.invalidQuery, "the place contains control characters")) { try PlaceQuery.parse(text) }
    }

    @Test(arguments: [[0x4D, 0x69, 0xFF, 0x6E], [0xC3], [0xED, 0xA0, 0x80], [0x4D, 0x69, 0xC0, 0xAF]] as [[UInt8]])
    func invalidUTF8IsRefused(bytes: [UInt8]) {
        #expect(throws: GazetteerError(.invalidQuery, "the place is not valid UTF-8 text")) { try PlaceQuery.parse(bytes: bytes) }
        #expect(throws: GazetteerError(.invalidQuery, "")) { try Fixture.gazetteer.search(bytes: bytes) }
    }

    @Test func validUTF8BytesSearch() throws {
        #expect(try Fixture.gazetteer.search(bytes: Array("Минск".utf8), limit: 1).first?.place.name == "Minsk")
    }

    @Test(arguments: ["'; DROP TABLE cities; --", "\" OR 1=1 --", "Robert'); DELETE FROM places;", "%' OR '%'='", "\\\"\\\\"])
    func quotesAndSQLAreJustTextWithNoMatch(text: String) throws {
        #expect(try Fixture.gazetteer.search(text, limit: 5).isEmpty)
    }

    @Test func searchRefusesCoordinates() {
        #expect(throws: GazetteerError(.invalidQuery, "")) { try Fixture.gazetteer.search("53.9,27.57") }
    }
}
