import Foundation
@testable import IsobarCLI
import IsobarCore
@testable import IsobarRender
import Testing

@Suite struct HostileValueTests {
    @Test(arguments: [1e19, -1e19, Double.infinity, -Double.infinity, Double.nan, 1e300])
    func hugeOrNonFiniteDirectionsNeverCrash(degrees: Double) {
        #expect(!Compass.text(degrees).isEmpty)
        #expect(!Compass.point(degrees).isEmpty)
        #expect(!TableRenderer.fixed(degrees, decimals: 1).isEmpty)
    }

    @Test func ordinaryValuesKeepTheirForm() {
        #expect(Compass.text(227) == "SW 227°")
        #expect(Compass.text(-133) == "SW 227°")
        #expect(Compass.text(720 + 227) == "SW 227°")
        #expect(TableRenderer.fixed(-0.43, decimals: 1) == "-0.4")
        #expect(TableRenderer.fixed(1e16, decimals: 1) == "1e+16")
    }

    @Test func aRateWindowLongerThanAYearIsAConfigurationError() async throws {
        let config = try temporaryConfiguration("""
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "http://127.0.0.1:9", "rate_limits": [{"limit": 10, "per_s": 1e19}]}]}
        """)
        let run = await runCLI(["compare", "Minsk", "--config", config])
        #expect(run.code == ExitCode.configuration.rawValue)
        #expect(run.stderr.contains("per_s of at most a year"))
    }

    @Test func aCacheThatCanOnlyBeMadeInMemoryIsAnErrorForTheCacheCommand() async throws {
        let blocker = temporaryDirectory("cache-blocker") + "/file"
        try "not a folder".write(toFile: blocker, atomically: true, encoding: .utf8)
        for action in ["stats", "clear", "prune"] {
            let run = await runCLI(["cache", action, "--cache-dir", blocker + "/isobar"])
            #expect(run.code == ExitCode.configuration.rawValue, "\(action): \(run.stdout)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        }
    }
}
