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
    /// later one is held unanswered until the test ends; the command's own deadline is the roomy one, so only the budget can
    /// end a held retry. However slow the machine, the budget only cuts an earlier attempt (or the first, before it is sent).
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
        let run = await runCLI(["now", "53.9,27.57", "--json", "--config", config, "--timeout", "600"], environment: environment, transport: curl)
        #expect(run.code != 0)
        let errors = try parseLines(run).filter { (try? $0.string("type")) == "provider_error" }
        #expect(errors.count == 2, "\(run.stdout)\(run.stderr)")
        for (provider, path) in [("openweathermap", "/data/2.5/weather"), ("open-meteo", "/v1/forecast")] {
            let asked = server.requests.filter { $0.path == path }.count
            let error = try #require(errors.first { (try? $0.string("provider")) == provider }).member("error")
            let code = try error.string("code")
            let message = try error.string("message")
            // At most one retry, and never the command's deadline: the budget ended the call.
            #expect(asked <= 2, "\(path): \(asked) requests")
            #expect(!message.contains("600 s"), "\(message)")
            // A held retry can only have been ended by the budget; a call that got no retry ends with the 503 or the budget.
            if asked == 2 { #expect(code == "timeout", "\(message)") }
            if asked == 0 { #expect(code == "timeout", "\(message)") }
        }
    }
}
