import IsobarEngine
import Synchronization
import Testing

/// The log of storage problems keeps a bounded number and counts them all.
@Suite("Diagnostic log")
struct DiagnosticLogTests {
    private static func problem(_ number: Int) -> Diagnostic {
        Diagnostic(number.isMultiple(of: 2) ? .cache : .ledger, "cannot write entry \(number): disk full")
    }

    @Test func tenThousandProblemsKeepTheFirstHundredAndCountThemAll() {
        let forwarded = Mutex(0)
        let log = DiagnosticLog { _ in forwarded.withLock { $0 += 1 } }
        for number in 0..<10_000 { log.report(Self.problem(number)) }
        #expect(log.diagnostics.count == 100)
        #expect(log.diagnostics == (0..<100).map(Self.problem))
        #expect(log.total == 10_000)
        #expect(log.counts == [.cache: 5_000, .ledger: 5_000])
        #expect(forwarded.withLock { $0 } == 10_000)
        let listing = log.listing
        #expect(listing.count == 101)
        #expect(listing.first == "cache: cannot write entry 0: disk full")
        #expect(listing.last == "… 9900 more")
    }

    @Test func underTheLimitEveryProblemIsListedWithNoMoreLine() {
        let log = DiagnosticLog(keepLimit: 3)
        for number in 0..<3 { log.report(Self.problem(number)) }
        #expect(log.listing == (0..<3).map { Self.problem($0).description })
        #expect(log.total == 3)
    }

    @Test func oneOverTheLimitIsCountedInTheMoreLine() {
        let log = DiagnosticLog(keepLimit: 3)
        for number in 0..<4 { log.report(Self.problem(number)) }
        #expect(log.diagnostics.count == 3)
        #expect(log.listing.last == "… 1 more")
    }

    @Test func aLimitOfZeroOrLessKeepsNoneAndStillCounts() {
        for limit in [0, -5] {
            let log = DiagnosticLog(keepLimit: limit)
            log.report(Self.problem(1))
            log.report(Self.problem(2))
            #expect(log.keepLimit == 0)
            #expect(log.diagnostics.isEmpty)
            #expect(log.total == 2)
            #expect(log.listing == ["… 2 more"])
        }
    }

    @Test func anEmptyLogListsNothing() {
        let log = DiagnosticLog()
        #expect(log.listing.isEmpty)
        #expect(log.total == 0)
        #expect(log.counts.isEmpty)
    }
}
