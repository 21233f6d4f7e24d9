import Foundation
import IsobarCLI
import IsobarCore
import IsobarEngine
import IsobarHTTP
import IsobarTestKit
import Testing

@Suite struct ProviderIdentityTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    /// One Open-Meteo entry with the id `open-meteo` at `server`.
    func meteoOnly(_ server: LoopbackServer, days: Int? = nil) throws -> String {
        try temporaryConfiguration("""
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)"\(days.map { #", "forecast_days": \#($0)"# } ?? "")}]}
        """)
    }

    @Test func twoConfigurationsWithOneIdNeverShareCachedAnswers() async throws {
        let first = try providerServer()
        let second = try providerServer()
        let environment = ["XDG_CACHE_HOME": temporaryDirectory("identity")]
        #expect(await runCLI(["compare", "Minsk", "--config", try meteoOnly(first)], environment: environment, transport: curl).code == 0)
        #expect(first.requests.count == 1)
        // Same id, another endpoint: asked afresh, not answered from the first one's cache.
        let other = await runCLI(["compare", "Minsk", "--config", try meteoOnly(second), "--json"], environment: environment, transport: curl)
        #expect(try resultLine(try parseLines(other), provider: "open-meteo").string("status") == "ok")
        #expect(second.requests.count == 1)
        // Another option that changes the answer (days) is another endpoint too; the first configuration is still cached.
        _ = await runCLI(["compare", "Minsk", "--config", try meteoOnly(first, days: 3)], environment: environment, transport: curl)
        #expect(first.requests.count == 2)
        let again = await runCLI(["compare", "Minsk", "--config", try meteoOnly(first), "--json"], environment: environment, transport: curl)
        #expect(try resultLine(try parseLines(again), provider: "open-meteo").string("status") == "cached")
        #expect(first.requests.count == 2)
    }

    @Test func aBreakerTrippedByOneEndpointDoesNotSkipAnother() async throws {
        let failing = try LoopbackServer { _ in .init(status: 503, #"{"error":true,"reason":"down"}"#) }
        let working = try providerServer()
        let environment = ["XDG_CACHE_HOME": temporaryDirectory("identity-breaker")]
        let broken = try meteoOnly(failing)
        for _ in 0..<5 { _ = await runCLI(["compare", "Minsk", "--config", broken], environment: environment, transport: curl) }
        let skipped = await runCLI(["compare", "Minsk", "--config", broken, "--json"], environment: environment, transport: curl)
        let error = try #require(try parseLines(skipped).first { try $0.string("type") == "provider_error" })
        #expect(try error.member("error").string("reason") == "breaker_open")
        let healthy = await runCLI(["compare", "Minsk", "--config", try meteoOnly(working), "--json"], environment: environment, transport: curl)
        #expect(healthy.code == 0, "\(healthy.stderr)")
        #expect(try resultLine(try parseLines(healthy), provider: "open-meteo").string("status") == "ok")
    }

    @Test func geocodingAnswersAreNotSharedBetweenEndpoints() async throws {
        func geocoder(latitude: Double) throws -> LoopbackServer {
            let body = #"{"results":[{"name":"Qwxzzt","latitude":LAT,"longitude":20.5,"country_code":"AO","timezone":"Africa/Luanda"}]}"#
            return try LoopbackServer { _ in .init(body.replacingOccurrences(of: "LAT", with: String(latitude))) }
        }
        let first = try geocoder(latitude: -10.25)
        let second = try geocoder(latitude: -11.5)
        let weather = try providerServer()
        func config(_ geocoding: LoopbackServer) throws -> String {
            try temporaryConfiguration(#"{"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "BASE", "geocoding_url": "GEO"}]}"#
                .replacingOccurrences(of: "BASE", with: weather.baseURL).replacingOccurrences(of: "GEO", with: geocoding.baseURL))
        }
        let environment = ["XDG_CACHE_HOME": temporaryDirectory("identity-geocoding")]
        let one = await runCLI(["compare", "Qwxzzt", "--config", try config(first), "--json"], environment: environment, transport: curl)
        #expect(try parseLines(one).last?.member("place").double("latitude") == -10.25)
        let other = await runCLI(["compare", "Qwxzzt", "--config", try config(second), "--json"], environment: environment, transport: curl)
        #expect(try parseLines(other).last?.member("place").double("latitude") == -11.5)
        #expect(second.requests.count == 1)
        // The first endpoint's answer is still cached for it.
        _ = await runCLI(["compare", "Qwxzzt", "--config", try config(first)], environment: environment, transport: curl)
        #expect(first.requests.count == 1)
    }

    @Test func storageKeysAreStableAndDifferByEndpoint() {
        #expect(Fingerprint.hex("") == "cbf29ce484222325")
        #expect(Fingerprint.hex("type=open-meteo;base=default;days=default") == Fingerprint.hex("type=open-meteo;base=default;days=default"))
        #expect(Fingerprint.hex("type=open-meteo;base=default;days=3") != Fingerprint.hex("type=open-meteo;base=default;days=default"))
        #expect(Fingerprint.hex("a").count == 16)
    }
}
