import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

@Suite struct ProviderBudgetTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    /// `timeout_s` is the provider's total budget within a command: retries never take it past that.
    @Test func timeoutIsTheTotalBudgetRetriesIncluded() async throws {
        let server = try LoopbackServer { _ in .init(status: 503, #"{"message":"busy"}"#, delaySeconds: 1) }
        let config = try liveConfiguration(server, extra: #", "timeout_s": 1.5"#)
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": temporaryDirectory("cache")]
        let run = await runCLI(["now", "53.9,27.57", "--config", config, "--timeout", "10"], environment: environment, transport: curl)
        #expect(run.code != 0)
        // Three attempts of 1 s each would span 2 s and more; the budget ends the second attempt at 1.5 s and allows no third.
        for path in ["/data/2.5/weather", "/v1/forecast"] {
            let times = server.requests.filter { $0.path == path }.map(\.receivedAt)
            #expect(times.count <= 2, "\(path): \(times.count) requests")
            #expect((times.max() ?? 0) - (times.min() ?? 0) < 1.5, "\(path): requests over \((times.max() ?? 0) - (times.min() ?? 0)) s")
        }
    }
}
