import IsobarCore
import Testing

/// A place is written one way and read back with one strictness rule.
@Suite struct PlaceJSONTests {
    private let minsk = Place(name: "Minsk", adminArea: "Minsk City", countryCode: "BY", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!,
                              timeZoneIdentifier: "Europe/Minsk")

    private func read(_ text: String) throws -> Place {
        try PlaceJSON.place(try JSONDocument(parsing: text).rootValue)
    }

    @Test func aPlaceIsWrittenInOneOrderAndReadBack() throws {
        let text = PlaceJSON.object(minsk).serialized()
        #expect(text == #"{"name":"Minsk","admin_area":"Minsk City","country_code":"BY","latitude":53.9,"longitude":27.5667,"timezone":"Europe/Minsk"}"#)
        let back = try read(text)
        #expect(back.name == "Minsk" && back.adminArea == "Minsk City" && back.countryCode == "BY" && back.timeZoneIdentifier == "Europe/Minsk")
        #expect(back.coordinate == minsk.coordinate)
        #expect(PlaceJSON.places(PlaceJSON.array([minsk, minsk]))?.count == 2)
        var buffer = JSONOutputBuffer()
        buffer.beginObject()
        buffer.placeMembers(minsk)
        buffer.endObject()
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == JSONOutput.object(PlaceJSON.locating(minsk)).serialized())
    }

    @Test func absentAndNullOptionalMembersAreNil() throws {
        let place = try read(#"{"name": "X", "admin_area": null, "latitude": 1, "longitude": 2, "utc_offset_seconds": 3600}"#)
        #expect(place.adminArea == nil && place.countryCode == nil && place.timeZoneIdentifier == nil)
        #expect(place.utcOffsetSeconds == 3600)
    }

    @Test func aMemberOfAnotherTypeOrAMissingOneMakesThePlaceUnreadable() {
        for text in [#"{"name": "X", "country_code": 7, "latitude": 1, "longitude": 2}"#, #"{"latitude": 1, "longitude": 2}"#,
                     #"{"name": "X", "latitude": "1", "longitude": 2}"#] {
            #expect(throws: PlaceJSONError.self, "\(text)") { try read(text) }
        }
        // In a list, such a place is left out and the others are kept.
        let list = #"[{"name": "X", "country_code": 7, "latitude": 1, "longitude": 2}, {"name": "Y", "latitude": 1, "longitude": 2}]"#
        #expect(PlaceJSON.places(list)?.map(\.name) == ["Y"])
        #expect(PlaceJSON.places(#"{"name": "Y"}"#) == nil)
    }

    @Test func coordinatesOutOfRangeNameTheirPath() throws {
        let value = try JSONDocument(parsing: #"[{"name": "X", "latitude": 91, "longitude": 2}]"#).rootValue.elements()[0]
        do {
            _ = try PlaceJSON.place(value)
            Issue.record("a latitude of 91 was read")
        } catch .coordinatesOutOfRange(let path) {
            #expect(path.description == "$[0]")
        } catch {
            Issue.record("\(error)")
        }
    }
}
