import Foundation
import IsobarCLI
import IsobarCore
import Testing

@Suite struct AirConfigurationTests {
    /// `air Minsk` with the given `air_providers` entries (replaying the bundled recordings unless they say otherwise).
    func air(_ entries: String, _ extra: [String] = []) async throws -> CLIRun {
        let path = try temporaryConfiguration(#"{"providers": [{"type": "open-meteo", "replay": "\#(dataDirectory)/cassettes/open-meteo"}], "air_providers": [\#(entries)]}"#)
        return await runCLI(["air", "Minsk", "--config", path] + extra)
    }

    @Test("a domain Open-Meteo Air does not have is refused, naming the key and the choices")
    func badDomain() async throws {
        expectOneLineError(try await air(#"{"type": "open-meteo-air", "domains": "mars"}"#), code: .configuration,
                           containing: "must be auto, europe or global, not 'mars'")
    }

    @Test("an unknown key in an air entry is refused like a weather entry's; a weather type is not an air type")
    func unknownKeyAndType() async throws {
        expectOneLineError(try await air(#"{"type": "open-meteo-air", "model": "x"}"#), code: .configuration, containing: "model")
        expectOneLineError(try await air(#"{"type": "open-meteo"}"#), code: .configuration, containing: "unknown provider type 'open-meteo'")
    }

    @Test("OpenWeatherMap Air without a key is not configured, names the variable, and never blocks Open-Meteo Air")
    func missingKey() async throws {
        let replayed = #"{"type": "open-meteo-air", "replay": "\#(dataDirectory)/cassettes/open-meteo-air"}"#
        let run = try await air(replayed + #", {"type": "openweathermap-air", "api_key_env": "ISOBAR_TEST_NO_SUCH_KEY"}"#, ["--format", "jsonl"])
        #expect(run.code == 2, "\(run.stderr)")
        let line = try #require(try parseLines(run).first)
        #expect(try line.member("failures").elements().first?.string("message").contains("ISOBAR_TEST_NO_SUCH_KEY") == true)
        #expect(try line.member("current").double("pm2_5") > 0)
    }

    @Test("the weather commands never ask the air sources, and air asks none of the weather's")
    func separateSources() async throws {
        let now = await runCLI(["now", "Minsk", "--demo", "--format", "jsonl"])
        #expect(now.code == 0 || now.code == 2)
        #expect(!now.stdout.contains("open-meteo-air") && !now.stdout.contains("openweathermap-air"))
        let air = await runCLI(["air", "Minsk", "--demo", "--format", "jsonl"])
        #expect(air.code == 0, "\(air.stderr)")
        let line = try #require(try parseLines(air).first)
        #expect(try line.member("sources").elements().map { try $0.string("provider") } == ["open-meteo-air", "openweathermap-air"])
    }

    @Test("now and the home view end with the air line where an air source answers; JSON lines and places without air data have none")
    func airLineOfNow() async throws {
        let minsk = await runCLI(["now", "Minsk", "--demo"])
        #expect(minsk.stdout.contains("Air: US AQI (EPA) 54 Moderate (PM2.5) now; worst of the next 12 hours 59 Moderate (PM2.5) at 19:00."))
        let home = await runCLI(["Minsk", "--demo"])
        #expect(home.stdout.contains("Air: US AQI (EPA) 54 Moderate (PM2.5) now"))
        let tokyo = await runCLI(["now", "Tokyo", "--demo"])
        #expect(tokyo.code == 0 && !tokyo.stdout.contains("Air:") && !tokyo.stderr.contains("air"))
        let lines = await runCLI(["now", "Minsk", "--demo", "--format", "jsonl"])
        #expect(!lines.stdout.contains(#""type":"air""#))
        let compare = await runCLI(["compare", "Minsk", "--demo"])
        #expect(!compare.stdout.contains("Air:"))
    }

    @Test("--days takes 1 to 16, as for the forecast")
    func daysRange() async {
        expectOneLineError(await runCLI(["air", "Minsk", "--demo", "--days", "0"]), code: .usage, containing: "--days")
    }
}
