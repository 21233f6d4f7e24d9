import IsobarCore
import Testing

@Suite("ProviderError")
struct ProviderErrorTests {
    @Test func equalityIsByCodeOnly() {
        #expect(ProviderError(.timeout, "a") == ProviderError(.timeout, "completely different"))
        #expect(ProviderError(.timeout, "same") != ProviderError(.unavailable, "same"))
        #expect(ProviderError(.rateLimited(retryAfterSeconds: 5), "x") == ProviderError(.rateLimited(retryAfterSeconds: 5), "y"))
        #expect(ProviderError(.rateLimited(retryAfterSeconds: 5), "x") != ProviderError(.rateLimited(retryAfterSeconds: nil), "x"))
        #expect(ProviderError(.badResponse(path: "$.a"), "x") != ProviderError(.badResponse(path: "$.b"), "x"))
        #expect(ProviderError(.unavailable, "x", reason: .dnsFailure) == ProviderError(.unavailable, "y", reason: .connectionRefused))
    }

    @Test(arguments: [
        (ProviderError.Code.unauthorized, "unauthorized"), (.notFound, "not_found"), (.badRequest, "bad_request"),
        (.rateLimited(retryAfterSeconds: 3), "rate_limited"), (.rateLimited(retryAfterSeconds: nil), "rate_limited"),
        (.unavailable, "unavailable"), (.timeout, "timeout"), (.badResponse(path: "$"), "bad_response"),
        (.notConfigured, "not_configured"), (.unsupported, "unsupported"), (.cancelled, "cancelled"),
    ])
    func codeNamesAreSnakeCase(code: ProviderError.Code, name: String) {
        #expect(ProviderError(code, "m").codeName == name)
    }

    @Test func descriptionIsTheMessage() {
        #expect(ProviderError(.timeout, "Open-Meteo timed out").description == "Open-Meteo timed out")
    }

    @Test func badResponseFromAJSONErrorNamesThePath() {
        let json = JSONError(.missing, path: JSONPath.root.appending(key: "hourly").appending(key: "time"))
        let error = ProviderError.badResponse(json, provider: "Open-Meteo")
        #expect(error.code == .badResponse(path: "$.hourly.time"))
        #expect(error.codeName == "bad_response")
        #expect(error.message == "Open-Meteo sent a response Isobar cannot read: missing value at $.hourly.time")
    }
}

struct FailureCauseTests {
    @Test func everyCauseIsWrittenInSnakeCase() {
        for cause in FailureCause.allCases {
            #expect(cause.rawValue.allSatisfy { $0.isLowercase || $0 == "_" }, "\(cause)")
        }
        #expect(FailureCause.insecureURL.rawValue == "insecure_url")
        #expect(FailureCause.breakerOpen.rawValue == "breaker_open")
    }

    @Test func onlyBreakerCooldownOfflineAndOutsideCoverageAreSkips() {
        #expect(Set(FailureCause.allCases.filter(\.isSkip)) == [.breakerOpen, .cooldown, .offline, .outsideCoverage])
    }
}
