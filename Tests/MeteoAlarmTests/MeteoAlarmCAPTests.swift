import FoundationEssentials
import IsobarCore
import IsobarTestKit
import MeteoAlarm
import Testing

/// CAP as MeteoAlarm carries it: several `info` blocks in the issuer's languages, the awareness parameters, areas with
/// `EMMA_ID` geocodes and no polygon, the green level.
@Suite("MeteoAlarm CAP")
struct MeteoAlarmCAPTests {
    typealias Fixture = MeteoAlarmFixture

    static let brussels = Place(name: "Brussels", adminArea: "Brussels Capital", countryCode: "BE",
                                coordinate: Coordinate(latitude: 50.8505, longitude: 4.3488)!)
    static let request = WeatherRequest(place: brussels, kinds: [.alerts])

    static func info(_ language: String, _ event: String, level: String = "3; orange; Severe", areas: [(String, String)] = [("Brussels", "BE004")]) -> String {
        let blocks = areas.map { "<area><areaDesc>\($0.0)</areaDesc><geocode><valueName>EMMA_ID</valueName><value>\($0.1)</value></geocode></area>" }
        return """
            <info><language>\(language)</language><category>Met</category><event>\(event)</event><urgency>Immediate</urgency>
            <severity>Severe</severity><certainty>Likely</certainty><onset>2026-11-28T06:00:00+01:00</onset>
            <expires>2026-11-28T23:00:00+01:00</expires><senderName>RMI</senderName><headline>\(event) (\(language))</headline>
            <parameter><valueName>awareness_level</valueName><value>\(level)</value></parameter>
            <parameter><valueName>awareness_type</valueName><value>1; Wind</value></parameter>
            \(blocks.joined())</info>
            """
    }

    static func cap(_ identifier: String, type: String = "Alert", references: String? = nil, infos: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>\(identifier)</identifier><sender>rmi@meteo.be</sender>
        <sent>2026-11-28T05:00:00+01:00</sent><status>Actual</status><msgType>\(type)</msgType><scope>Public</scope>
        \(references.map { "<references>\($0)</references>" } ?? "")
        \(infos.joined(separator: "\n"))</alert>
        """
    }

    /// The Belgian feed holding `files` (name → CAP text), asked by a reader wanting `wanted`, with BE004 configured for Brussels.
    static func fetch(_ files: [(String, String)], wanted: String? = nil, codes: [String] = ["EMMA_ID:BE004"]) async throws -> WeatherReport {
        var bodies = ["/feeds/meteoalarm-legacy-atom-belgium": Fixture.feed(files.map(\.0))]
        for (name, text) in files { bodies["/api/v1/warnings/feeds-belgium/\(name)"] = text }
        let provider = Fixture.provider(areas: codes.isEmpty ? [] : [(.name("brussels"), codes)], country: "BE", wanted: wanted)
        return try await provider.fetch(request, context: Fixture.context(Fixture.transport(bodies)))
    }

    static let wind = cap("BE-1", infos: [info("nl-BE", "Wind"), info("fr-BE", "Vent"), info("de-DE", "Wind"), info("en-GB", "Strong wind")])

    @Test func theReadersLanguageIsChosenAmongTheIssuersAndEnglishOtherwise() async throws {
        let french = try await Self.fetch([("f1", Self.wind)], wanted: "fr_BE.UTF-8")
        #expect(french.alerts.map(\.event) == ["Vent"] && french.alerts.first?.language == "fr-BE")
        let dutch = try await Self.fetch([("f1", Self.wind)], wanted: "nl")
        #expect(dutch.alerts.map(\.headline) == ["Wind (nl-BE)"])
        let spanish = try await Self.fetch([("f1", Self.wind)], wanted: "es")
        #expect(spanish.alerts.map(\.event) == ["Strong wind"])
        #expect(spanish.alerts.first?.languageNote == "in English: the issuer sent none in es")
    }

    @Test func theAwarenessParametersAreKeptAsSent() async throws {
        let report = try await Self.fetch([("f1", Self.wind)])
        let alert = try #require(report.alerts.first)
        #expect(alert.awarenessLevel == "3; orange; Severe" && alert.awarenessType == "1; Wind")
        #expect(alert.severity == .severe)
    }

    @Test func aGeocodeWithoutPolygonPlacesOnlyByAConfiguredCodeAndOnlyThatAreaIsKept() async throws {
        let twoAreas = Self.cap("BE-2", infos: [Self.info("en-GB", "Rain", areas: [("Antwerp", "BE001"), ("Brussels", "BE004")])])
        let placed = try await Self.fetch([("f2", twoAreas)])
        #expect(placed.alerts.map(\.area.codes) == [["EMMA_ID:BE004"]] && placed.alerts.first?.area.description == "Brussels")
        #expect(placed.alerts.first?.placedBy == "the configured area code EMMA_ID:BE004")
        #expect(placed.notices.isEmpty)
        let unplaced = try await Self.fetch([("f2", twoAreas)], codes: [])
        #expect(unplaced.alerts.isEmpty)
        #expect(unplaced.notices.first?.hasPrefix("1 warning in force in Belgium could not be placed at Brussels") == true)
        #expect(unplaced.notices.first?.hasSuffix("to place it, list Brussels's area codes under \"areas\" in this source's entry "
                                                  + "(e.g. \"areas\": {\"Brussels\": [\"CODE\"]}); its areas: Antwerp (EMMA_ID:BE001); "
                                                  + "Brussels (EMMA_ID:BE004)") == true)
    }

    @Test func anAreaNamedLikeThePlaceOrItsRegionIsNotEnoughToPlaceAWarning() async throws {
        let named = Self.cap("BE-3", infos: [Self.info("en-GB", "Fog", areas: [("Brussels Capital", "BE004")])])
        let report = try await Self.fetch([("f3", named)], codes: [])
        #expect(report.alerts.isEmpty)
        #expect(report.notices.count == 1)
    }

    @Test func theGreenLevelIsNoWarningButAGreenUpdateStillReplacesTheWarningItNames() async throws {
        let green = Self.cap("BE-4", infos: [Self.info("en-GB", "Nothing special", level: "1; green; Minor")])
        let quiet = try await Self.fetch([("f4", green)], codes: [])
        #expect(quiet.alerts.isEmpty && quiet.notices.isEmpty)
        let lowered = Self.cap("BE-5", type: "Update", references: "rmi@meteo.be,BE-1,2026-11-28T05:00:00+01:00",
                               infos: [Self.info("en-GB", "Strong wind", level: "1; green; Minor")])
        let report = try await Self.fetch([("f1", Self.wind), ("f5", lowered)])
        #expect(AlertMerge.active(report.alerts, at: Fixture.recordedAt, for: Self.brussels.coordinate).isEmpty)
    }

    @Test func anUpdateThatCannotBePlacedStillReplacesAPlacedWarningAndACancelWithoutInfoWithdraws() async throws {
        let moved = Self.cap("BE-6", type: "Update", references: "rmi@meteo.be,BE-1,2026-11-28T05:00:00+01:00",
                             infos: [Self.info("en-GB", "Strong wind", areas: [("Liège", "BE007")])])
        let replaced = try await Self.fetch([("f1", Self.wind), ("f6", moved)])
        #expect(AlertMerge.active(replaced.alerts, at: Fixture.recordedAt, for: Self.brussels.coordinate).isEmpty)
        #expect(replaced.notices.first?.contains("Liège (EMMA_ID:BE007)") == true)
        let cancel = Self.cap("BE-7", type: "Cancel", references: "rmi@meteo.be,BE-1,2026-11-28T05:00:00+01:00", infos: [])
        let withdrawn = try await Self.fetch([("f1", Self.wind), ("f7", cancel)])
        #expect(AlertMerge.active(withdrawn.alerts, at: Fixture.recordedAt, for: Self.brussels.coordinate).isEmpty)
        #expect(withdrawn.notices.isEmpty)
    }
}
