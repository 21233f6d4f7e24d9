import Foundation
import IsobarCore
import Synchronization
import Testing

/// A wake-up asked for during a burst is made once, when the burst ends; outside a burst, or on another thread, at once.
@Suite struct HeldWakeupsTests {
    /// The wake-ups under test, as a loop and the queues it feeds would share them.
    let wakeups = HeldWakeups()
    /// The names of the probes woken, in order.
    final class Log: Sendable {
        let names = Mutex<[String]>([])
    }

    /// Counts its wake-ups and records their order in a shared log.
    final class Probe: Wakeable {
        let name: String
        let log: Log?
        private let count = Atomic<Int>(0)

        init(_ name: String, log: Log? = nil) {
            self.name = name
            self.log = log
        }

        func wake() {
            count.add(1, ordering: .relaxed)
            log?.names.withLock { $0.append(name) }
        }

        var wakes: Int { count.load(ordering: .relaxed) }
    }

    @Test func outsideABurstAWakeUpIsMadeAtOnce() {
        let probe = Probe("a")
        wakeups.wake(probe)
        #expect(probe.wakes == 1)
    }

    @Test func duringABurstWakeUpsWaitForItsEndAndAreMadeOnceEachInTheOrderAskedFor() {
        let log = Log()
        let first = Probe("first", log: log)
        let second = Probe("second", log: log)
        var seenInside: [Int] = []
        wakeups.holding {
            wakeups.wake(first)
            wakeups.wake(second)
            wakeups.wake(first)
            seenInside = [first.wakes, second.wakes]
        }
        #expect(seenInside == [0, 0])
        #expect(log.names.withLock { $0 } == ["first", "second"])
        #expect(first.wakes == 1 && second.wakes == 1)
    }

    @Test func anInnerBurstMakesItsOwnWakeUpsAtItsEndAndTheOuterOneKeepsHolding() {
        let inner = Probe("inner")
        let outer = Probe("outer")
        var innerAfterInnerBurst = -1
        var outerAfterInnerBurst = -1
        wakeups.holding {
            wakeups.wake(outer)
            wakeups.holding { wakeups.wake(inner) }
            innerAfterInnerBurst = inner.wakes
            outerAfterInnerBurst = outer.wakes
            wakeups.wake(inner)
            #expect(inner.wakes == 1, "held again, by the outer burst")
        }
        #expect(innerAfterInnerBurst == 1)
        #expect(outerAfterInnerBurst == 0)
        #expect(inner.wakes == 2 && outer.wakes == 1)
    }

    @Test func anotherThreadIsNotHeldByThisThreadsBurst() {
        let probe = Probe("other")
        let done = DispatchSemaphore(value: 0)
        var seenInside = -1
        wakeups.holding {
            let thread = Thread {
                wakeups.wake(probe)
                done.signal()
            }
            thread.start()
            #expect(done.wait(timeout: .now() + 10) == .success)
            seenInside = probe.wakes
        }
        #expect(seenInside == 1)
        #expect(probe.wakes == 1)
    }
}
