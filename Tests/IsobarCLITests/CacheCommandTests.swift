import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

@Suite(.serialized) struct CacheCommandTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    @Test func secondRunIsServedFromTheCacheAndSaysSo() async throws {
        let server = try providerServer()
        let config = try liveConfiguration(server)
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": temporaryDirectory("cache")]
        let first = await runCLI(["compare", "Minsk", "--config", config], environment: environment, transport: curl)
        #expect(first.code == 0)
        let requests = server.requests.count
        let second = await runCLI(["compare", "Minsk", "--config", config, "--format", "jsonl"], environment: environment, transport: curl)
        #expect(server.requests.count == requests)
        let lines = try parseLines(second)
        #expect(try resultLine(lines, provider: "openweathermap").string("status") == "cached")
        let outcome = try #require(try lines.last?.member("outcomes").elements().first { try $0.string("provider") == "open-meteo" })
        #expect(try outcome.string("status") == "cached")
        let table = await runCLI(["compare", "Minsk", "--config", config], environment: environment, transport: curl)
        #expect(table.stdout.contains("Status"))
        #expect(table.stdout.contains("cached"))
        // --refresh asks again; --offline never does.
        _ = await runCLI(["compare", "Minsk", "--config", config, "--refresh"], environment: environment, transport: curl)
        #expect(server.requests.count == requests + 2)
        let offline = await runCLI(["compare", "Minsk", "--config", config, "--offline", "--max-age", "0"], environment: environment, transport: curl)
        #expect(server.requests.count == requests + 2)
        #expect(offline.stdout.contains("STALE"))
        #expect(offline.code == ExitCode.partial.rawValue)
        #expect(!offline.stdout.contains(sentinelKey))
    }

    @Test func statsClearAndPrune() async throws {
        let server = try providerServer()
        let config = try liveConfiguration(server)
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": temporaryDirectory("cache")]
        _ = await runCLI(["forecast", "Minsk", "--config", config], environment: environment, transport: curl)
        let stats = await runCLI(["cache", "stats", "--format", "jsonl"], environment: environment)
        #expect(stats.code == 0)
        let line = try #require(try parseLines(stats).first)
        #expect(try line.string("type") == "cache_stats")
        let entries = try line.member("entries").elements()
        #expect(try entries.map { "\(try $0.string("provider"))/\(try $0.string("kind"))" }.sorted()
            == ["open-meteo/current", "open-meteo/forecast", "openweathermap/current", "openweathermap/forecast"])
        let table = await runCLI(["cache", "stats"], environment: environment)
        #expect(table.stdout.contains("4 answer(s)"))
        let pruned = await runCLI(["cache", "prune", "--older-than", "3600"], environment: environment)
        #expect(pruned.stdout.contains("Removed 0 cached answer(s)"))
        let cleared = await runCLI(["cache", "clear"], environment: environment)
        #expect(cleared.stdout.contains("Removed 4 cached answer(s)"))
        expectOneLineError(await runCLI(["cache", "stat"], environment: environment), code: .usage, containing: "did you mean 'stats'?")
        expectOneLineError(await runCLI(["cache", "prune", "--older-than", "-1"], environment: environment), code: .usage,
                           containing: "--older-than takes a duration")
        expectOneLineError(await runCLI(["cache", "prune", "--older-than", "inf"], environment: environment), code: .usage,
                           containing: "--older-than takes a duration")
        let bytes = try #require(try parseLines(await runCLI(["cache", "stats", "--format", "jsonl"], environment: environment)).first)
        #expect(try bytes.int("file_bytes") > 0)
    }

    @Test func providersListsLimitsUsageCooldownAndBreaker() async throws {
        let server = try providerServer(owmStatus: 429, owmBody: #"{"cod":429,"message":"blocked"}"#, headers: [("Retry-After", "120")])
        let config = try liveConfiguration(server)
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": temporaryDirectory("cache")]
        _ = await runCLI(["compare", "Minsk", "--config", config], environment: environment, transport: curl)
        let run = await runCLI(["providers", "--config", config], environment: environment)
        #expect(run.code == 0)
        #expect(run.stdout.contains("openweathermap (OpenWeatherMap, type openweathermap): live"))
        #expect(run.stdout.contains("rate limits (used/limit): 1/60 per 60 s"))
        #expect(run.stdout.contains("cooldown: until"))
        #expect(run.stdout.contains("(HTTP 429)"))
        #expect(run.stdout.contains("4.6/600 per 60 s"))
        let jsonl = try parseLines(await runCLI(["providers", "--config", config, "--format", "jsonl"], environment: environment))
        let owm = try #require(jsonl.first { (try? $0.string("provider")) == "openweathermap" })
        #expect(try owm.member("configured").bool())
        #expect(try owm.member("rate_limits").elements().first?.double("used") == 1)
        let unconfigured = await runCLI(["providers", "--config", config], environment: ["XDG_CACHE_HOME": temporaryDirectory("cache")])
        #expect(unconfigured.stdout.contains("NOT CONFIGURED: set TEST_OWM_KEY"))
    }

    @Test func providersResetClearsCooldownsAndBreakers() async throws {
        let server = try providerServer(owmStatus: 429, owmBody: #"{"cod":429,"message":"blocked"}"#, headers: [("Retry-After", "86400")])
        let config = try liveConfiguration(server)
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": temporaryDirectory("cache")]
        let compared = await runCLI(["compare", "Minsk", "--config", config], environment: environment, transport: curl)
        #expect(compared.stdout.contains("asked to wait 1 d (Retry-After); paused for 1 h") || compared.stderr.contains("paused for 1 h"))
        #expect(await runCLI(["providers", "--config", config], environment: environment).stdout.contains("cooldown: until"))
        expectOneLineError(await runCLI(["providers", "reset", "openweathermp", "--config", config], environment: environment), code: .usage,
                           containing: "did you mean 'openweathermap'?")
        expectOneLineError(await runCLI(["providers", "rest", "--config", config], environment: environment), code: .usage,
                           containing: "did you mean 'reset'?")
        let reset = await runCLI(["providers", "reset", "openweathermap", "--config", config], environment: environment)
        #expect(reset.code == 0)
        #expect(reset.stdout == "Cleared the cooldown and breaker of openweathermap.\n")
        #expect(!(await runCLI(["providers", "--config", config], environment: environment).stdout.contains("cooldown: until")))
        let all = try parseLines(await runCLI(["providers", "reset", "--config", config, "--format", "jsonl"], environment: environment))
        #expect(try all.map { try $0.string("type") } == ["provider_reset", "provider_reset"])
    }

    @Test func quorumAndTimeoutOptions() async throws {
        let server = try providerServer(owmStatus: 500, owmBody: "oops")
        let config = try liveConfiguration(server)
        let environment = ["TEST_OWM_KEY": sentinelKey]
        let run = await runCLI(["compare", "Minsk", "--config", config, "--min-providers", "2"], environment: environment, transport: curl)
        #expect(run.code == ExitCode.quorumNotMet.rawValue)
        #expect(run.stderr.contains("only 1 provider(s) answered; --min-providers asks for 2"))
        expectOneLineError(await runCLI(["compare", "Minsk", "--config", config, "--min-providers", "3"]), code: .usage,
                           containing: "more than the 2 provider(s)")
        expectOneLineError(await runCLI(["compare", "Minsk", "--timeout", "0"]), code: .usage, containing: "--timeout takes a duration")
        expectOneLineError(await runCLI(["compare", "Minsk", "--offline", "--refresh"]), code: .usage, containing: "--offline uses only the cache")
    }
}
