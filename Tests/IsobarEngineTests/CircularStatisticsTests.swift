import IsobarConsensus
import IsobarEngine
import Testing

@Suite("CircularStatistics")
struct CircularStatisticsTests {
    // MARK: Mean

    @Test func meanOfNothingOrOfCancellingAnglesIsNil() {
        #expect(CircularStatistics.mean([]) == nil)
        #expect(CircularStatistics.mean([0, 180]) == nil)
        #expect(CircularStatistics.mean([90, 270]) == nil)
        #expect(CircularStatistics.mean([0, 120, 240]) == nil)
        #expect(CircularStatistics.mean([45, 225, 135, 315]) == nil)
    }

    static let means: [([Double], Double)] = [
        ([90.0], 90.0), ([0, 90], 45), ([10, 20, 30], 20), ([-10], 350), ([765], 45), ([180], 180), ([200, 220], 210),
        ([350, 10], 0), ([340, 350, 10, 20], 0), ([355, 15], 5), ([360], 0), ([0], 0), ([-90], 270),
    ]

    @Test(arguments: means)
    func meanDirection(angles: [Double], expected: Double) throws {
        let mean = try #require(CircularStatistics.mean(angles))
        #expect((0..<360).contains(mean), "mean of \(angles) is \(mean), outside 0..<360")
        #expect(circularDistance(mean, expected) < 1e-9, "mean of \(angles) is \(mean), expected \(expected)")
    }

    // MARK: Arc

    @Test func arcOfNothingIsNil() {
        #expect(CircularStatistics.arc([]) == nil)
    }

    static let arcs: [([Double], Double, Double, Double)] = [
        ([90.0], 90.0, 90.0, 0.0),
        ([90, 90], 90, 90, 0),
        ([350, 10], 350, 10, 20),
        ([10, 350], 350, 10, 20),
        ([360, -10], 350, 0, 10),
        ([-370], 350, 350, 0),
        ([720], 0, 0, 0),
        ([80, 100, 90], 80, 100, 20),
        ([0, 90, 180], 0, 180, 180),
        ([10, 200], 200, 10, 170),
        ([340, 20, 0], 340, 20, 40),
    ]

    @Test(arguments: arcs)
    func smallestArc(angles: [Double], start: Double, end: Double, width: Double) throws {
        let arc = try #require(CircularStatistics.arc(angles))
        #expect(arc.start == start, "start of the arc of \(angles)")
        #expect(arc.end == end, "end of the arc of \(angles)")
        #expect(arc.width == width, "width of the arc of \(angles)")
    }

    @Test func evenlySpreadAnglesSpanTwoThirdsOfTheCircle() throws {
        let arc = try #require(CircularStatistics.arc([0, 120, 240]))
        #expect(arc.width == 240)
    }
}
