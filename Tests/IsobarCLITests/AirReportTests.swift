import Foundation
@testable import IsobarCLI
import IsobarRender
import IsobarConsensus
import IsobarCore
import Testing

@Suite struct AirReportTests {
    let place = Place(name: "Minsk", countryCode: "BY", coordinate: Coordinate(latitude: 53.9, longitude: 27.57)!)
    let start = Date(timeIntervalSince1970: 1_795_856_400)

    /// Two sources' hours of PM2.5 (and birch pollen from the first when given), merged.
    func report(_ first: [Double], _ second: [Double], birch: [Double?]? = nil) -> AirReport {
        func source(_ id: String, _ values: [Double], pollen: [Double?]?) -> WeatherReport {
            let hours = values.enumerated().map { index, value in
                var sample = WeatherSample(time: start.addingTimeInterval(Double(index) * 3600), periodHours: 1)
                sample[.pm25] = value
                sample[.birchPollen] = pollen?[index] ?? nil
                return sample
            }
            return WeatherReport(providerID: id, place: place, fetchedAt: start, utcOffsetSeconds: 10_800, current: hours.first, hourly: hours)
        }
        let reports = [source("a", first, pollen: birch), source("b", second, pollen: nil)]
        let merged = ConsensusV1.merge(reports, place: place, now: start)
        return AirReport(place: place, consensus: merged, reports: reports, names: ["a": "A", "b": "B"], failures: [], now: start)
    }

    @Test func answersAndFailuresAreInTheSourcesOrderWhateverOrderTheyCameIn() {
        let request = EngineRequest(id: RequestID(0), weather: WeatherRequest(place: place))
        func answer(_ id: String) -> WeatherReport {
            WeatherReport(providerID: id, place: place, fetchedAt: start, utcOffsetSeconds: 10_800)
        }
        func failed(_ id: String) -> EngineEvent<ConsensusResult> {
            .failure(request, providerID: id, error: ProviderError(.unavailable, "\(id) is away"))
        }
        let sources = [("a", "A"), ("b", "B"), ("c", "C"), ("d", "D")].map { (id: $0.0, name: $0.1) }
        let events: [EngineEvent<ConsensusResult>] = [failed("d"), .result(request, ProviderResult(report: answer("c"), days: [])), failed("b"),
                                                      .result(request, ProviderResult(report: answer("a"), days: []))]
        let air = AirCommand.report(place, events, sources: sources, now: start)
        #expect(air.sources.map(\.id) == ["a", "c"])
        #expect(air.failures.map(\.id) == ["b", "d"])
        #expect(air.failures.map(\.message) == ["b is away", "d is away"])
    }

    @Test("indices are computed from the merged concentration, never from each source's")
    func mergedThenIndexed() throws {
        let air = report([6, 33, 53], [10, 37, 57])
        let current = try #require(air.current)
        #expect(current.values[.pm25]?.value == 8)
        #expect(current.index(.usAQI)?.value == 44)
        // Each source alone would say 33 and 53 (Good and Moderate); the merged value says 44.
        #expect(AirIndexScale.usAQI.subIndex(.pm25, concentration: 6)?.value == 33)
        #expect(AirIndexScale.usAQI.subIndex(.pm25, concentration: 10)?.value == 53)
        #expect(air.hourly.map { $0.index(.usAQI)?.value } == [44, 99, 149])
    }

    @Test("the worst hour ahead is the highest index within the window, with its hour; none when nothing is ahead")
    func worstAhead() throws {
        let air = report([6, 53, 33], [10, 57, 37])
        let worst = try #require(air.worst(.usAQI, within: 12, after: start))
        #expect(worst.index.value == 149 && worst.time == start.addingTimeInterval(3600))
        #expect(air.worst(.usAQI, within: 0.5, after: start) == nil)
    }

    @Test("pollen: none given means no pollen data; a count given by one source is a count")
    func pollen() {
        #expect(!report([6, 7], [8, 9]).hasPollen)
        let withBirch = report([6, 7], [8, 9], birch: [nil, 120])
        #expect(withBirch.hasPollen)
        #expect(withBirch.days(limit: 1).first?.pollen[.birchPollen] == 120)
    }
}
