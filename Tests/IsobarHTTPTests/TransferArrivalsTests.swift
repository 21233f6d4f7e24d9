@testable import IsobarHTTP
import IsobarTestKit
import Testing

/// A cancellation that reaches the I/O thread before its transfer is kept until the transfer arrives, in any order.
@Suite struct TransferArrivalsTests {
    @Test func anIdArrivingAfterAHigherOneIsStillMissingUntilItComes() {
        var arrivals = TransferArrivals()
        arrivals.arrived(2)
        #expect(arrivals.hasArrived(2))
        #expect(!arrivals.hasArrived(1), "a cancellation of 1 must be kept though 2 came first")
        #expect(!arrivals.hasArrived(3))
        arrivals.arrived(1)
        #expect(arrivals.hasArrived(1) && arrivals.hasArrived(2) && !arrivals.hasArrived(3))
        arrivals.arrived(1)
        arrivals.arrived(4)
        #expect(!arrivals.hasArrived(3) && arrivals.hasArrived(4))
        arrivals.arrived(3)
        #expect((1...4).allSatisfy(arrivals.hasArrived) && !arrivals.hasArrived(5))
    }

    @Test func manyIdsInShuffledOrderAllArriveAndNoneBeyond() {
        var arrivals = TransferArrivals()
        var ids = Array(1...500)
        var generator = SeededGenerator(seed: 7)
        ids.shuffle(using: &generator)
        for (index, id) in ids.enumerated() {
            arrivals.arrived(id)
            #expect(arrivals.hasArrived(id))
            if index == 250 { #expect(ids[251...].allSatisfy { !arrivals.hasArrived($0) }) }
        }
        #expect((1...500).allSatisfy(arrivals.hasArrived) && !arrivals.hasArrived(501))
    }
}
