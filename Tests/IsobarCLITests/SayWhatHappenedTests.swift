import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

@Suite struct SayWhatHappenedTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    @Test func theDemoSaysWhichPlacesItCoversWhenItHasNoRecording() async throws {
        let run = await runCLI(["compare", "10,10", "--demo"])
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        // Short lines: no cassette path, no request, one verdict naming the places recorded.
        #expect(!run.stdout.contains("cassettes") && !run.stdout.contains("https://") && !run.stderr.contains("cassettes"), "\(run.stdout)")
        #expect(run.stdout.contains("OpenWeatherMap: not recorded — the demo has no recording of "), "\(run.stdout)")
        let verdict = run.stdout.split(separator: "\n").drop { !$0.hasPrefix("No provider answered") }.joined(separator: " ")
        #expect(verdict.hasPrefix("No provider answered: the demo has no recording of "), "\(run.stdout)")
        #expect(verdict.hasSuffix("Next: ask Minsk, Moscow, London, New York, Tokyo, São Paulo or Oslo, or leave out --demo for live data."), "\(verdict)")
        // Plain sentences and JSON lines say the same.
        let plain = await runCLI(["now", "10,10", "--demo", "--plain"])
        #expect(plain.stdout.contains("did not answer: not recorded, the demo has no recording of "), "\(plain.stdout)")
        #expect(plain.stdout.contains("ask Minsk, Moscow, London, New York, Tokyo, São Paulo or Oslo, or leave out --demo"), "\(plain.stdout)")
        let lines = await runCLI(["compare", "10,10", "--demo", "--format", "jsonl"])
        #expect(lines.stdout.contains("\"cause\":\"not_recorded\""), "\(lines.stdout)")
        #expect(lines.stdout.contains("\"reason\":\"not_recorded\""))
        // A covered place says nothing of the kind.
        let covered = await runCLI(["compare", "Minsk", "--demo"])
        #expect(!covered.stdout.contains("no recording") && !covered.stderr.contains("no recording"))
    }

    @Test func replayOutsideTheDemoKeepsTheWholeRequestForWhoeverRecords() async throws {
        let directory = temporaryDirectory("replay-miss")
        for id in ["openweathermap", "open-meteo", "met-norway", "nws"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + id, withIntermediateDirectories: true)
        }
        let run = await runCLI(["compare", "10,10", "--replay", directory, "--providers", "open-meteo"])
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        #expect(run.stdout.contains("no recorded response for GET https://api.open-meteo.com/v1/forecast?"), "\(run.stdout)")
        #expect(run.stdout.contains("No provider answered: no recording answers for "), "\(run.stdout)")
        #expect(!run.stdout.contains("leave out --demo"))
    }

    @Test func citiesInTheDemoNameTheRecordedPlacesInOneShortNote() async throws {
        let environment = ["XDG_DATA_HOME": temporaryDirectory("demo-cities-data"), "XDG_CONFIG_HOME": temporaryDirectory("demo-cities-config")]
        #expect(await runCLI(["cities", "add", "10,10"], environment: environment).code == 0)
        let run = await runCLI(["cities", "--demo"], environment: environment)
        let notes = run.stdout.split(separator: "\n").filter { $0.hasPrefix("[") }
        #expect(!notes.isEmpty, "\(run.stdout)")
        for note in notes {
            #expect(note.contains("not recorded — the demo has no recording of this city: it has recordings of Minsk, Moscow"), "\(note)")
            #expect(!note.contains("cassettes") && !note.contains("https://"))
        }
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
