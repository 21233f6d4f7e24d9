@testable import IsobarCLI
import IsobarConsensus
import Testing

/// `isobar verify` fits the terminal like the other tables: nothing wider than it, no lead time left out.
@Suite struct VerifyWidthTests {
    @Test(arguments: [20, 32, 40, 60, 80, 116])
    func everyLineFitsAndEveryLeadTimeStays(columns: Int) async {
        let run = await runCLI(["verify", "Minsk", "--demo"], environment: ["COLUMNS": String(columns)])
        #expect(run.code == 0, "\(run.stderr)")
        for line in run.lines { #expect(line.cellWidth <= columns, "\(columns): \(line)") }
        for lead in LeadBucket.allCases.map(\.rawValue) { #expect(run.stdout.contains(" \(lead)"), "\(columns): \(lead) left out") }
        #expect(run.stdout.contains("Mean absolute error") && run.stdout.contains("Brier score"))
    }

    @Test func withoutAWidthNothingChanges() async {
        let free = await runCLI(["verify", "Minsk", "--demo"])
        let wide = await runCLI(["verify", "Minsk", "--demo"], environment: ["COLUMNS": "400"])
        #expect(free.stdout == wide.stdout)
        #expect(free.stdout.contains("0.7 (48)"), "the pair counts are there when there is room")
        #expect(!free.stdout.contains("To fit"))
    }

    @Test func aNarrowTerminalLosesThePairCountsFirstAndSaysSo() async {
        let run = await runCLI(["verify", "Minsk", "--demo"], environment: ["COLUMNS": "80"])
        #expect(run.stdout.contains("To fit 80 columns: no pair counts."))
        #expect(!run.stdout.contains("(48)"))
        #expect(run.stdout.contains("*0.4"), "the best of a lead time keeps its mark")
    }
}
