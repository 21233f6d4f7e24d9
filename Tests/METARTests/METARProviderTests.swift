import FoundationEssentials
import IsobarCore
import IsobarHTTP
import IsobarConformance
import IsobarTestKit
import METAR
import Testing

@Suite struct METARProviderTests {
    let provider = METARProvider(configuration: .init(stations: Files.stations))

    func context(_ transport: any Transport) -> FetchContext {
        FetchContext(transport: transport, time: ManualClock(start: recordedAt.addingTimeInterval(300)))
    }

    @Test func theNearestStationWithARecentReportStandsForNow() async throws {
        let body = try Files.fixture("minsk")
        let transport = StubTransport(status: 200, body: body)
        let report = try await provider.fetch(WeatherRequest(place: minsk, kinds: [.current]), context: context(transport))
        // UMLI, nearer, files no reports: Minsk International's latest is taken.
        let request = try #require(transport.requests.first)
        #expect(request.url.description.contains("/api/data/metar?ids=UMLI,UMMS,UMMB&format=json&hours=3"))
        let current = try #require(report.current)
        #expect(current.time == recordedAt && current.temperatureC == -1 && current.condition == .snow)
        #expect(report.hourly.isEmpty && report.daily.isEmpty)
        #expect(report.notices == ["observed at UMMS (Minsk International Airport), 30 km away: UMMS 280900Z 24006MPS 9999 -SN BKN012 M01/M03 Q1012 R31/290050 NOSIG"])
    }

    @Test func reportsOlderThanThreeHoursAreNotNow() async throws {
        let transport = StubTransport(status: 200, body: try Files.fixture("minsk"))
        let late = FetchContext(transport: transport, time: ManualClock(start: recordedAt.addingTimeInterval(3 * 3_600 + 60)))
        await #expect { try await provider.fetch(WeatherRequest(place: minsk, kinds: [.current]), context: late) } throws: {
            let error = $0 as? ProviderError
            return error?.code == .notFound
                && error?.message == "none of the METAR stations within 50 km of Minsk (UMLI, UMMS, UMMB) reported in the last 3 h"
        }
    }

    @Test func noStationInRangeAsksNothing() async throws {
        let transport = StubTransport(status: 200, body: "[]")
        let ocean = place("South Pacific", -40, -120)
        await #expect { try await provider.fetch(WeatherRequest(place: ocean, kinds: [.current]), context: context(transport)) } throws: {
            ($0 as? ProviderError)?.message == "no METAR station within 50 km of South Pacific"
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func anUnreadableStationListIsNotConfiguredAndAsksNothing() async throws {
        let transport = StubTransport(status: 200, body: "[]")
        let broken = METARProvider(configuration: .init(stations: { () throws(METARStationsError) in
            try METARStations(path: "/nonexistent/metar-stations.tsv")
        }))
        await #expect { try await broken.fetch(WeatherRequest(place: minsk, kinds: [.current]), context: context(transport)) } throws: {
            let error = $0 as? ProviderError
            return error?.code == .notConfigured && error?.message == "cannot read the METAR station list /nonexistent/metar-stations.tsv"
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func theServiceIsAskedOverRealHTTP() async throws {
        let body = try Files.fixture("new-york")
        let server = try LoopbackServer { request in
            request.path == "/api/data/metar" && request.parameter("ids") == "KLGA,KEWR,KTEB,KJFK,KLDJ" ? .init(body) : .init(status: 404, "[]")
        }
        defer { server.stop() }
        var configuration = METARProvider.Configuration(baseURL: RequestURL(string: server.baseURL)!, stations: Files.stations)
        configuration.candidates = 5
        let live = METARProvider(configuration: configuration)
        let report = try await live.fetch(WeatherRequest(place: newYork, kinds: [.current]), context: context(CurlTransport(userAgent: "isobar/test")))
        #expect(report.current?.temperatureC == -2.2)
        #expect(report.notices.first?.hasPrefix("observed at KLGA (Laguardia Airport), 13 km away") == true)
    }

    @Test func itPassesTheProviderConformanceRules() async throws {
        let transport = StubTransport(status: 200, body: try Files.fixture("minsk"))
        let report = try await provider.fetch(WeatherRequest(place: minsk, kinds: [.current]), context: context(transport))
        #expect(report.validated(now: recordedAt.addingTimeInterval(300)).warnings.isEmpty)
        #expect(provider.capabilities.kinds == [.current] && provider.capabilities.attribution != nil)
    }
}
