import FoundationEssentials
import IsobarCore
import IsobarTestKit
import MeteoAlarm
import Testing

/// The bundled London recording of MeteoAlarm's United Kingdom feed, and providers and places to ask it with.
enum MeteoAlarmFixture {
    static let recordedAt = Date(timeIntervalSince1970: 1_795_856_400)
    static let london = Place(name: "London", adminArea: "England", countryCode: "GB", coordinate: Coordinate(latitude: 51.5085, longitude: -0.1257)!)
    static let oslo = Place(name: "Oslo", countryCode: "NO", coordinate: Coordinate(latitude: 59.9127, longitude: 10.7461)!)
    static let request = WeatherRequest(place: london, kinds: [.alerts])

    /// The recording: request path → response body.
    static func recording() throws -> [String: String] {
        let root = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
        let bytes = try #require(FileManager.default.contents(atPath: root + "/config/cassettes/meteoalarm/london.json"))
        var bodies: [String: String] = [:]
        for interaction in try JSONDocument(parsing: Array(bytes)).rootValue.member("interactions").elements() {
            let url = try #require(RequestURL(string: try interaction.member("request").string("url")))
            bodies[url.path] = try interaction.member("response").string("body")
        }
        return bodies
    }

    /// A transport answering from `bodies` by path, 404 for anything else.
    static func transport(_ bodies: [String: String]) -> StubTransport {
        StubTransport { request throws(ProviderError) in
            guard let body = bodies[request.url.path] else { return HTTPResponse(status: 404, body: Array("no such warning".utf8)) }
            return HTTPResponse(status: 200, body: Array(body.utf8))
        }
    }

    /// The provider for the United Kingdom, with `areas` (place key → codes) and a reader wanting `wanted`.
    static func provider(areas: [(MeteoAlarmOptions.PlaceKey, [String])] = [(.name("london"), ["EMMA_ID:UK012"])], country: String = "GB",
                         baseURL: String = "https://feeds.meteoalarm.org", wanted: String? = nil) -> MeteoAlarmProvider {
        let options = MeteoAlarmOptions(country: MeteoAlarmCountry(country)!, areas: areas.map { (place: $0.0, codes: $0.1) })
        return MeteoAlarmProvider(configuration: .init(baseURL: RequestURL(string: baseURL)!, application: "isobar/test", options: options,
                                                       language: AlertLanguage(wanted: wanted)))
    }

    static func context(_ transport: any Transport) -> FetchContext { FetchContext(transport: transport, time: ManualClock(start: recordedAt)) }

    /// A one-file feed linking CAP file `file`.
    static func feed(_ files: [String], updated: String = "2026-11-28T09:00:00Z") -> String {
        let entries = files.map { file in
            """
            <entry><cap:identifier>x</cap:identifier>
            <link href="https://feeds.meteoalarm.org/api/v1/warnings/feeds-belgium/\(file)" type="application/cap+xml"/>
            <title>Warning</title></entry>
            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2"><updated>\(updated)</updated>
            \(entries.joined(separator: "\n"))
            </feed>
            """
    }
}
