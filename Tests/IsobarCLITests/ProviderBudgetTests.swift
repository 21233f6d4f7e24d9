import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

@Suite struct ProviderBudgetTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    /// `timeout_s` is the provider's total budget within a command: retries never take it past that. Judged by outcomes, not
    /// by the server's arrival times: each provider's first request is refused at once (503, which is retried), and every
    /// later one is held unanswered until the test ends, so only the budget can end a retry, whatever the machine's speed.
    @Test func timeoutIsTheTotalBudgetRetriesIncluded() async throws {
        let firsts = ["/data/2.5/weather": Atomic429(), "/v1/forecast": Atomic429()]
        let held = DispatchSemaphore(value: 0)
        let server = try LoopbackServer { request in
            if firsts[request.path]?.next() == false { held.wait() }
            return .init(status: 503, #"{"message":"busy"}"#)
        }
        defer { for _ in 0..<8 { held.signal() } }
        let config = try liveConfiguration(server, extra: #", "timeout_s": 1.5"#)
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": temporaryDirectory("cache")]
        let run = await runCLI(["now", "53.9,27.57", "--json", "--config", config, "--timeout", "10"], environment: environment, transport: curl)
        #expect(run.code != 0)
        let errors = try parseLines(run).filter { (try? $0.string("type")) == "provider_error" }
        #expect(errors.count == 2, "\(run.stdout)\(run.stderr)")
        for (provider, path) in [("openweathermap", "/data/2.5/weather"), ("open-meteo", "/v1/forecast")] {
            let asked = server.requests.filter { $0.path == path }.count
            let error = try #require(errors.first { (try? $0.string("provider")) == provider }).member("error")
            // At most a retry: the held one can end only by the budget, never by the command's 10 s deadline. A loaded machine may leave no room for a retry: then the 503 ends it.
            #expect(asked == 1 || asked == 2, "\(path): \(asked) requests")
            if asked == 2 {
                #expect(try error.string("code") == "timeout", "\(error)")
                let message = try error.string("message")
                // The transfer's own timeout, cut to the budget ("… within 1.2 s"), not the engine's "no answer within the
                // 10 s deadline".
                #expect(message.contains(" within ") && !message.contains("10 s deadline"), "\(message)")
            } else {
                #expect(try error.string("code") != "timeout", "\(error)")
            }
        }
    }
}
