import FoundationEssentials
import IsobarCore
import MeteoAlarm
import Testing

/// A `meteoalarm` entry's options: the country (required) and the area codes given for places.
@Suite("MeteoAlarm options")
struct MeteoAlarmOptionsTests {
    static func read(_ entry: String) throws(OptionError) -> MeteoAlarmOptions? {
        let document: JSONDocument
        do { document = try JSONDocument(parsing: Array(entry.utf8)) } catch { throw OptionError("not JSON") }
        return try MeteoAlarmOptions.read(OptionSource(entry: document.rootValue, directory: "/")).value(as: MeteoAlarmOptions.self)
    }

    static func refusal(_ entry: String) -> String? {
        do { _ = try read(entry); return nil } catch { return error.message }
    }

    @Test func theCountryIsAnISOCodeOrTheFeedsNameInAnyCase() throws {
        #expect(try Self.read(#"{"country": "gb"}"#)?.country.feed == "united-kingdom")
        #expect(try Self.read(#"{"country": "United-Kingdom"}"#)?.country.code == "GB")
        #expect(try Self.read(#"{"country": "DE"}"#)?.country.feed == "germany")
    }

    @Test func aMissingOrUnknownCountryIsRefusedSayingWhichThereAre() {
        #expect(Self.refusal(#"{}"#) == #"$.country is missing: a meteoalarm entry reads one country's feed (e.g. "country": "GB")"#)
        let unknown = Self.refusal(#"{"country": "US"}"#)
        #expect(unknown?.hasPrefix("$.country 'US' has no MeteoAlarm feed; countries: AT BA BE") == true)
    }

    @Test func areasMapNamesAndCoordinatesToCodesAnEMMAIDWhenNoSchemeIsGiven() throws {
        let options = try #require(try Self.read(#"{"country": "GB", "areas": {"LONDON": ["UK012", "NUTS2:UKI3"], "51.5, -0.12": ["UK013"]}}"#))
        let london = Place(name: "London", countryCode: "GB", coordinate: Coordinate(latitude: 51.5085, longitude: -0.1257)!)
        #expect(options.codes(for: london) == ["EMMA_ID:UK012", "NUTS2:UKI3", "EMMA_ID:UK013"])
        let leeds = Place(name: "Leeds", countryCode: "GB", coordinate: Coordinate(latitude: 53.8, longitude: -1.55)!)
        #expect(options.codes(for: leeds).isEmpty)
        let accented = try #require(try Self.read(#"{"country": "BE", "areas": {"Liège": ["BE007"]}}"#))
        #expect(accented.codes(for: Place(name: "LIEGE", coordinate: Coordinate(latitude: 50.63, longitude: 5.57)!)) == ["EMMA_ID:BE007"])
    }

    @Test func badAreasAreRefusedNamingTheirPath() {
        #expect(Self.refusal(#"{"country": "GB", "areas": {"London": []}}"#) == "$.areas.London must list at least one area code")
        #expect(Self.refusal(#"{"country": "GB", "areas": {"London": ["UK 012"]}}"#)
                == "$.areas.London has 'UK 012', not an area code (e.g. UK012 or EMMA_ID:UK012)")
        #expect(Self.refusal(#"{"country": "GB", "areas": {"London": ["EMMA_ID:"]}}"#) != nil)
        #expect(Self.refusal(#"{"country": "GB", "areas": {"91,0": ["UK012"]}}"#)?.contains("is not a coordinate") == true)
        #expect(Self.refusal(#"{"country": "GB", "areas": {"London": "UK012"}}"#) != nil)
    }
}
