import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import Testing

/// Reports of a current temperature from each `(id, °C)`.
private func reports(_ values: [(String, Double)]) -> [WeatherReport] {
    values.map { id, temperature in
        Fixture.report(id, current: Fixture.step(0) { $0.temperatureC = temperature })
    }
}

/// Two models of one upstream (`om/a`, `om/b`) and two independent sources.
private let sources: [String: SourceIdentity] = [
    "om/a": SourceIdentity(id: "om/a", name: "OM A", family: "om", providerID: "om"),
    "om/b": SourceIdentity(id: "om/b", name: "OM B", family: "om", providerID: "om"),
]

@Suite("Consensus: families of sources")
struct FamilyWeightTests {
    @Test("a family's factor: one shares one weight, each keeps every weight, a number caps the family")
    func factors() {
        #expect(FamilyWeight.one.factor(members: 1) == 1)
        #expect(FamilyWeight.one.factor(members: 4) == 0.25)
        #expect(FamilyWeight.each.factor(members: 4) == 1)
        #expect(FamilyWeight.atMost(2).factor(members: 4) == 0.5)
        #expect(FamilyWeight.atMost(2).factor(members: 1) == 1)
        #expect(FamilyWeight.atMost(9).factor(members: 3) == 1)
    }

    @Test("by default two copies of one model cannot outvote independent sources")
    func copiesDoNotOutvote() {
        let input = reports([("om/a", 10), ("om/b", 10), ("x", 0), ("y", 2)])
        let one = ConsensusV1.merge(input, place: Fixture.place, sources: sources, now: Fixture.midnightUTC)
        #expect(one.current?[.temperature]?.value == 2)
        #expect(one.mergeWeights == ["om/a": 0.5, "om/b": 0.5, "x": 1, "y": 1])
        #expect(one.families == ["om/a": "om", "om/b": "om", "x": "x", "y": "y"])
        let each = ConsensusV1.merge(input, place: Fixture.place, sources: sources, familyWeight: .each, now: Fixture.midnightUTC)
        #expect((each.current?[.temperature]?.value ?? 0) > 2)
        #expect(each.mergeWeights["om/a"] == 1)
    }

    @Test("a source without a weight of its own takes its provider's; an entry weight of 0 leaves every model out")
    func providerWeight() {
        let input = reports([("om/a", 10), ("om/b", 12), ("x", 0)])
        let weighted = ConsensusV1.merge(input, place: Fixture.place, weights: ["om": 4, "om/b": 2], sources: sources, now: Fixture.midnightUTC)
        #expect(weighted.weights == ["om/a": 4, "om/b": 2, "x": 1])
        #expect(weighted.mergeWeights == ["om/a": 2, "om/b": 1, "x": 1])
        #expect(weighted.current?[.temperature]?.inputs.map(\.weight) == [2, 1, 1])
        let off = ConsensusV1.merge(input, place: Fixture.place, weights: ["om": 0], sources: sources, now: Fixture.midnightUTC)
        #expect(off.providers == ["x"])
        #expect(off.excluded == ["om/a", "om/b"])
    }
}

/// A provider whose one request carries two sources.
private struct TwoModelProvider: WeatherProvider {
    let id = "om"
    let displayName = "OM"
    let capabilities = ProviderCapabilities(
        kinds: [.current], horizonDays: 1, stepHours: 1, quantities: [.temperature], requiresAPIKey: false, geocoding: false)
    var sources: [SourceIdentity] { ["om/a", "om/b"].map { SourceIdentity(id: $0, name: $0, family: "om", providerID: "om") } }

    func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        var report = WeatherReport(providerID: id, place: request.place, fetchedAt: context.time.now())
        report.sourceReports = [("om/a", 10.0), ("om/b", 11.0)].map { id, temperature in
            WeatherReport(providerID: id, place: request.place, fetchedAt: context.time.now(),
                          current: Fixture.step(0, after: context.time.now()) { $0.temperatureC = temperature })
        }
        return report
    }
}

@Suite("Engine: one request, several sources")
struct SourceReportsEngineTests {
    @Test("each source report is a result of its own, merged as one family")
    func splits() async {
        let engine = Engine(consensus: Consensus(), bindings: [
            ProviderBinding(provider: TwoModelProvider(), transport: UnusedTransport()),
            ProviderBinding(provider: FakeProvider.answering("x", temperature: 0), transport: UnusedTransport()),
        ])
        let events = await engine.collect(WeatherRequest(place: Fixture.place, kinds: [.current]))
        let results = events.compactMap { event -> WeatherReport? in
            if case .result(_, let result) = event { return result.report }
            return nil
        }
        #expect(Set(results.map(\.providerID)) == ["om/a", "om/b", "x"])
        #expect(results.allSatisfy { $0.sourceReports.isEmpty })
        guard case .consensus(_, let consensus)? = events.last else {
            Issue.record("no consensus")
            return
        }
        #expect(consensus.providers == ["om/a", "om/b", "x"])
        #expect(consensus.families["om/b"] == "om")
        #expect(consensus.mergeWeights == ["om/a": 0.5, "om/b": 0.5, "x": 1])
    }

    @Test("the cache keeps the source reports exactly")
    func codec() throws {
        var report = Fixture.report("om")
        report.sourceReports = reports([("om/a", 10.25), ("om/b", -3)])
        let decoded = try #require(ReportCodec.decode(ReportCodec.encode(report), place: Fixture.place))
        #expect(decoded.sourceReports == report.sourceReports)
        #expect(ReportCodec.decode(ReportCodec.encode(Fixture.report("x")), place: Fixture.place)?.sourceReports == [])
    }
}
