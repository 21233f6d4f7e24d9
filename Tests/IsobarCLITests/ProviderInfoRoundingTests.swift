import Foundation
import IsobarCLI
import IsobarCore
import Testing

/// Figures in `provider_info` lines are rounded to 3 decimals, whatever the configuration holds.
@Suite struct ProviderInfoRoundingTests {
    @Test func configuredFiguresAreRoundedInJSON() async throws {
        let config = try temporaryConfiguration("""
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "http://127.0.0.1:9",
                        "ttl_s": {"current": 600.123456, "forecast": 1800.98765}, "rate_limits": [{"limit": 10.33333333, "per_s": 2.718281828}]}]}
        """)
        let run = await runCLI(["providers", "--config", config, "--format", "jsonl"])
        #expect(run.code == 0, "\(run.stderr)")
        let line = try #require(run.stdout.split(separator: "\n").first { $0.contains("\"open-meteo\"") })
        #expect(line.contains(#""ttl_s":{"current":600.123,"forecast":1800.988}"#), "\(line)")
        #expect(line.contains(#""limit":10.333,"per_s":2.718,"used":0"#), "\(line)")
    }

    @Test func aRateLimitThatCannotFitIsNamedWithRoundedFigures() async throws {
        let config = try temporaryConfiguration("""
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "http://127.0.0.1:9",
                        "rate_limits": [{"limit": 1.23456789, "per_s": 2.718281828}]}]}
        """)
        let run = await runCLI(["compare", "Minsk", "--config", config])
        #expect(run.code == ExitCode.configuration.rawValue)
        #expect(run.stderr.contains("more than its rate limit of 1.2 per 2.7 s; raise that limit"), "\(run.stderr)")
    }
}
