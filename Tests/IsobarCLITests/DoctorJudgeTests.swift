import Foundation
@testable import IsobarCLI
import IsobarCore
import Testing

/// How `isobar doctor` words a provider's network failure, from the requests it saw and the error they ended with.
struct DoctorJudgeTests {
    let entry = ProviderEntry(id: "open-meteo", type: "open-meteo", enabled: true)

    /// A request to Open-Meteo that was given `connectSeconds` to connect and had no answer.
    func unanswered(connectSeconds: Double) -> ProbeTransport.Exchange {
        ProbeTransport.Exchange(host: "api.open-meteo.com", secure: true, status: nil, date: nil, connectSeconds: connectSeconds)
    }

    func judge(_ exchange: ProbeTransport.Exchange, _ error: ProviderError) -> DoctorCheck {
        DoctorCommand.judge("network open-meteo", entry: entry, keyVariable: nil, connectSeconds: 60, [exchange], error)
    }

    @Test func eachRequestNotesTheConnectTimeItWasGiven() async throws {
        let request = HTTPRequest(url: try #require(RequestURL(string: "https://api.open-meteo.com/v1/forecast")), origin: "Open-Meteo")
        let roomy = ProbeTransport(base: NoNetworkTransport(), deadline: Date().addingTimeInterval(600), limits: (connect: 3, total: 6))
        _ = try? await roomy.send(request)
        #expect(roomy.exchanges.map(\.connectSeconds) == [3])
        let short = ProbeTransport(base: NoNetworkTransport(), deadline: Date().addingTimeInterval(1), limits: (connect: 3, total: 6))
        _ = try? await short.send(request)
        let given = try #require(short.exchanges.first?.connectSeconds)
        #expect(given <= 1, "at most what was left of the deadline, however long the machine took to send")
        let past = ProbeTransport(base: NoNetworkTransport(), deadline: Date().addingTimeInterval(-1), limits: (connect: 3, total: 6))
        _ = try? await past.send(request)
        #expect(past.exchanges.map(\.connectSeconds) == [0])
    }

    @Test func aConnectTimeoutSaysTheTimeTheRequestWasGivenNotTheConfiguredLimit() {
        let error = ProviderError(.timeout, "Open-Meteo: no connection to api.open-meteo.com within the 0.3 s left before the deadline",
                                  reason: .connectTimeout)
        let cut = judge(unanswered(connectSeconds: 0.3), error)
        #expect(cut.status == .failed)
        #expect(cut.detail == "api.open-meteo.com: name found, but no connection within the 0.3 s left before the deadline")
        #expect(cut.fix?.hasPrefix("try again with a longer --timeout; if it stays so, check the network connection") == true)
        let whole = judge(unanswered(connectSeconds: 60), error)
        #expect(whole.detail == "api.open-meteo.com: name found, but no connection within 60 s")
        #expect(whole.fix?.hasPrefix("check the network connection") == true)
    }

    @Test func noTimeLeftBeforeTheDeadlineIsNeverCalledAConnectionProblem() {
        let error = ProviderError(.timeout, "Open-Meteo: no time left before the deadline for api.open-meteo.com to answer", reason: .deadline)
        let check = judge(unanswered(connectSeconds: 0), error)
        #expect(check.status == .failed)
        #expect(check.detail == "api.open-meteo.com: no complete answer in time (Open-Meteo: no time left before the deadline for api.open-meteo.com to answer)")
        #expect(check.fix == "try again; a slow network may need a longer --timeout")
    }
}
