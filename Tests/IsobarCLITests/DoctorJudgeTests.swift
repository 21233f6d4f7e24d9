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
