import FoundationEssentials
import IsobarCore
import METAR
import Testing

@Suite struct METARDecoderTests {
    func decode(_ text: String, status: Int = 200) throws -> (observations: [METARObservation], warnings: [ValueWarning]) {
        try METARDecoder().decode(HTTPResponse(status: status, body: Array(text.utf8)), now: recordedAt)
    }

    @Test func theAnswersDecodedFieldsWinAndTheTextFillsTheRest() throws {
        let decoded = try decode(try Files.fixture("new-york"))
        #expect(decoded.warnings.isEmpty)
        let laGuardia = try #require(decoded.observations.first { $0.station == "KLGA" })
        #expect(laGuardia.temperatureC == -2.2 && laGuardia.dewPointC == -14.4)
        #expect(laGuardia.pressureHPa == 1030.1 && laGuardia.visibilityM == 10_000)
        #expect(abs(try #require(laGuardia.windGustMS) - 20 * 1_852 / 3_600) < 1e-9)
        #expect(laGuardia.condition == .mainlyClear && laGuardia.cloudCoverPercent == 18.75)
        let newark = try #require(decoded.observations.first { $0.station == "KEWR" })
        #expect(newark.windVariable && newark.windDirectionDeg == nil && newark.condition == .clear)
        // A report with only its text: every value comes from the text.
        let teterboro = try #require(decoded.observations.first { $0.station == "KTEB" })
        #expect(teterboro.temperatureC == -4 && teterboro.windSpeedMS == 0 && teterboro.time == recordedAt.addingTimeInterval(-540))
    }

    @Test func presentWeatherFromTheAnswerIsKept() throws {
        let decoded = try decode(try Files.fixture("minsk"))
        let latest = try #require(decoded.observations.max { $0.time < $1.time })
        #expect(latest.station == "UMMS" && latest.time == recordedAt)
        #expect(latest.condition == .snow && latest.cloudCoverPercent == 75)
        #expect(abs(try #require(latest.windSpeedMS) - 12 * 1_852 / 3_600) < 1e-9)
    }

    @Test func anEmptyAnswerHasNoReports() throws {
        #expect(try decode("", status: 204).observations.isEmpty)
        #expect(try decode("[]").observations.isEmpty)
        #expect(try decode(" \n").observations.isEmpty)
    }

    @Test func anUnreadableReportIsLeftOutWithAWarning() throws {
        let decoded = try decode(#"[{"icaoId": "UMMS"}, {"obsTime": 1795856400}, {"icaoId": "UMMS", "obsTime": 1795856400, "rawOb": "UMMS 280900Z 24006MPS M05/M08 Q1012"}]"#)
        #expect(decoded.observations.count == 1)
        #expect(decoded.warnings.map(\.path) == ["$[0]", "$[1]"])
    }

    @Test func failuresAreTheProvidersErrors() throws {
        #expect { try decode(#"{"error": "slow down"}"#, status: 429) } throws: { ($0 as? ProviderError)?.code == .rateLimited(retryAfterSeconds: nil) }
        func isBadResponse(_ error: any Error) -> Bool {
            guard case .badResponse = (error as? ProviderError)?.code else { return false }
            return true
        }
        #expect { try decode("<html>", status: 200) } throws: { isBadResponse($0) }
        #expect { try decode(#"{"not": "a list"}"#) } throws: { isBadResponse($0) }
    }
}
