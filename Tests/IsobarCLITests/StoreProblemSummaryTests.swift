@testable import IsobarCLI
import IsobarEngine
import Testing

/// The one line `providers` prints when reading the store had problems.
@Suite("Store problem summary")
struct StoreProblemSummaryTests {
    @Test func theStoreProblemSummaryCountsProblemsBeyondThoseKept() {
        let log = DiagnosticLog(keepLimit: 2)
        for number in 0..<250 { log.report(Diagnostic(.cache, "cannot read entry \(number)")) }
        #expect(ProvidersCommand.problemSummary(log) == "250 problem(s) with the store while reading it (run with --verbose to see them)")
        #expect(ProvidersCommand.problemSummary(DiagnosticLog()) == nil)
    }
}
