import IsobarCore
import IsobarTestKit
import Synchronization
import Testing

/// The state a plain thread sleeps on until another thread changes it and signals.
@Suite("Condition lock")
struct ConditionLockTests {
    private struct Door: Sendable {
        var isOpen = false
        var passed = 0
    }

    /// A value shared with a plain thread.
    private final class Shared<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        var current: Value { value.withLock { $0 } }
    }

    /// Starts a thread that waits for the door to open, then passes it; `checks` counts its looks at the door (each made with
    /// the mutex held: after a look that found it shut, the thread is asleep until a signal), `passed` gets its number.
    private func waiter(_ lock: ConditionLock<Door>, checks: Shared<Int>, passed: Shared<Int?>) {
        let started = PlainThread.detach {
            let number = lock.withLock(when: { door in
                checks.value.withLock { $0 += 1 }
                return door.isOpen
            }) { door in
                door.passed += 1
                return door.passed
            }
            passed.value.withLock { $0 = number }
        }
        if case .failure(let error) = started { Issue.record("no thread: \(error.code)") }
    }

    @Test func aSleepingWaiterGoesOnWhenAnotherThreadChangesTheStateAndSignals() async {
        let lock = ConditionLock(Door())
        let (checks, passed) = (Shared(0), Shared<Int?>(nil))
        waiter(lock, checks: checks, passed: passed)
        #expect(await eventually { checks.current >= 1 }, "the waiter never looked at the door")
        #expect(passed.current == nil)
        lock.withLock { $0.isOpen = true }
        lock.signal()
        #expect(await eventually { passed.current == 1 }, "the signal did not wake the waiter")
        #expect(lock.withLock { $0.passed } == 1)
    }

    @Test func aSignalWithoutTheChangeLeavesTheWaiterWaiting() async {
        let lock = ConditionLock(Door())
        let (checks, passed) = (Shared(0), Shared<Int?>(nil))
        waiter(lock, checks: checks, passed: passed)
        #expect(await eventually { checks.current >= 1 })
        lock.signal()
        // Woken, it looks again, finds the door shut and sleeps on.
        #expect(await eventually { checks.current >= 2 }, "the signal did not wake the waiter")
        #expect(passed.current == nil)
        lock.withLock { $0.isOpen = true }
        lock.signal()
        #expect(await eventually { passed.current == 1 })
    }

    @Test func aWaiterWhoseStateIsReadyDoesNotSleep() {
        let lock = ConditionLock(Door(isOpen: true))
        #expect(lock.withLock(when: \.isOpen) { door in door.passed += 1; return door.passed } == 1)
    }

    @Test func threadsChangingTheStateTogetherLoseNoChange() async {
        let lock = ConditionLock(0)
        let finished = Shared(0)
        for _ in 0..<4 {
            let started = PlainThread.detach {
                for _ in 0..<1_000 { lock.withLock { $0 += 1 } }
                finished.value.withLock { $0 += 1 }
            }
            if case .failure(let error) = started { Issue.record("no thread: \(error.code)") }
        }
        #expect(await eventually { finished.current == 4 })
        #expect(lock.withLock { $0 } == 4_000)
    }

    @Test func aTimedWaitWakesAtItsInstantWithoutASignal() {
        let lock = ConditionLock(0)
        let instant = ConditionLock<Int>.monotonicSeconds() + 0.01
        // Nobody signals: only the timed wake-up lets the waiter see that the instant has passed.
        let checks = lock.withLock(when: { _ in ConditionLock<Int>.monotonicSeconds() >= instant }, wakingAt: { _ in instant }) { state -> Int in
            state += 1
            return state
        }
        #expect(checks == 1)
        #expect(ConditionLock<Int>.monotonicSeconds() >= instant)
    }
}
