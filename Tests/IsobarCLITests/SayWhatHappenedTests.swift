import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

@Suite struct SayWhatHappenedTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    @Test func theDemoSaysWhichPlacesItCoversWhenItHasNoRecording() async {
        let run = await runCLI(["compare", "10,10", "--demo"])
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        let notes = run.stderr.split(separator: "\n").filter { $0.contains("the demo has recordings for") }
        #expect(notes.count == 1)
        #expect(notes.first?.contains("Minsk, Moscow, London, New York, Tokyo and São Paulo only") == true)
        // A covered place says nothing of the kind.
        #expect(!(await runCLI(["compare", "Minsk", "--demo"])).stderr.contains("the demo has recordings"))
    }

    @Test func recordingWithAWarmCacheAsksAgainAndRecords() async throws {
        let server = try providerServer()
        let config = try liveConfiguration(server)
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": temporaryDirectory("record-warm")]
        #expect(await runCLI(["compare", "Minsk", "--config", config], environment: environment, transport: curl).code == 0)
        let before = server.requests.count
        let directory = temporaryDirectory("record-warm-cassettes")
        let recorded = await runCLI(["compare", "Minsk", "--config", config, "--record", directory], environment: environment, transport: curl)
        #expect(recorded.code == 0, "\(recorded.stderr)")
        #expect(server.requests.count > before)
        #expect(recorded.stderr.contains("recorded 1 exchange(s) of open-meteo"))
    }

    @Test func aRateLimitNoRequestCanFitIsAConfigurationError() async throws {
        let config = try temporaryConfiguration("""
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "http://127.0.0.1:9", "rate_limits": [{"limit": 3, "per_s": 60}]}]}
        """)
        let run = await runCLI(["compare", "Minsk", "--config", config])
        #expect(run.code == ExitCode.configuration.rawValue)
        #expect(run.stderr.contains("provider 'open-meteo': one request counts as 4.6 calls, more than its rate limit of 3 per 60 s"))
        #expect(run.stdout.isEmpty)
    }

    @Test(arguments: [(9.990898489952087, "10"), (1.9846302270889282, "2"), (0.25, "0.3"), (0.04, "0"), (42.6, "43"), (5, "5")])
    func durationsInMessagesAreRounded(seconds: Double, spoken: String) {
        #expect(SpokenDuration.seconds(seconds) == spoken)
    }
}

@Suite struct ShortForecastTests {
    @Test func fewerDaysThanAskedForAreExplained() async {
        let run = await runCLI(["forecast", "Minsk", "--demo", "--days", "16", "--providers", "openweathermap"])
        #expect(run.code == 0)
        #expect(run.stderr.contains("isobar: note: 4 of the 16 days asked for are forecast; the providers that answered forecast OpenWeatherMap 5 days ahead"))
        let full = await runCLI(["forecast", "Minsk", "--demo", "--days", "7"])
        #expect(!full.stderr.contains("days asked for"))
    }
}
