import FoundationEssentials
import IsobarCore
import IsobarTestKit
import METAR
import Testing

@Suite struct METARArchiveTests {
    let provider = METARProvider(configuration: .init(stations: Files.stations))
    let now = Date(timeIntervalSince1970: 1_764_288_000)  // 2025-11-28T00:00Z

    func response(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "text/plain")], body: Array(text.utf8))
    }

    @Test func oneRequestAsksOneStationAndTheWholeRangeInUTC() throws {
        let request = provider.archiveRequest(station: "UMMS", from: Date(timeIntervalSince1970: 1_761_955_200), to: now)
        let url = request.url.description
        #expect(url.hasPrefix("https://mesonet.agron.iastate.edu/cgi-bin/request/asos.py?station=UMMS&data=tmpf"))
        #expect(url.contains("year1=2025&month1=11&day1=1") && url.contains("year2=2025&month2=11&day2=28"))
        #expect(url.contains("format=onlycomma") && url.contains("missing=M"))
        #expect(try provider.archiveStation(near: minsk) == "UMMS" || provider.archiveStation(near: minsk) == "UMLI")
    }

    @Test func reportsAreReadInCelsiusAndMissingOnesSkipped() throws {
        let csv = "station,valid,tmpf\nUMMS,2025-11-27 00:00,32.00\nUMMS,2025-11-27 00:30,M\nUMMS,2025-11-27 01:00,23.00\n"
        let samples = try provider.archivedObservations(in: response(csv), now: now)
        #expect(samples.count == 2)
        #expect(samples[0].time == Date(timeIntervalSince1970: 1_764_201_600) && samples[0].temperatureC == 0)
        #expect(abs(samples[1].temperatureC! - -5) < 1e-9)
    }

    @Test func unreadableAnswersAreBadResponsesNamingTheLine() {
        for (text, message) in [("no header here\n", "header"), ("station,valid,tmpf\nUMMS,2025-11-27 00:00\n", "line 2"),
                                ("station,valid,tmpf\nUMMS,yesterday,32\n", "line 2"), ("station,valid,tmpf\nUMMS,2025-11-27 00:00,999\n", "line 2")] {
            #expect {
                _ = try provider.archivedObservations(in: response(text), now: now)
            } throws: { error in
                (error as! ProviderError).message.contains(message)
            }
        }
        #expect(throws: ProviderError.self) { _ = try provider.archivedObservations(in: response("busy", status: 503), now: now) }
    }
}
