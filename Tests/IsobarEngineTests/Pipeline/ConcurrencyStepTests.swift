import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Testing

@Suite("ConcurrencyStep")
struct ConcurrencyStepTests {
    let clock = ManualClock()

    /// A step below that waits in `lot` before answering.
    func parked(in lot: ParkingLot) -> ScriptedStep {
        ScriptedStep(clock: clock) { [clock] _, number throws(ProviderError) in
            guard await lot.park() else { throw ProviderError(.cancelled, "cancelled", reason: .cancelled) }
            return sampleReport(Double(number), at: clock.now())
        }
    }

    func start(_ step: ConcurrencyStep) -> Task<Result<WeatherReport, ProviderError>, Never> {
        Task { await Result.of { () async throws(ProviderError) in try await step.answer(providerCall(clock: clock)) } }
    }

    @Test func atMostNCallsAreInFlight() async throws {
        let lot = ParkingLot()
        let next = parked(in: lot)
        let step = ConcurrencyStep(next: next, slots: AsyncSemaphore(2), providerName: "P")
        let calls = (0..<5).map { _ in start(step) }
        await eventually("two calls are under way") { lot.parked == 2 }
        await letOthersRun()
        #expect(next.callCount == 2)
        #expect(next.inFlight == 2)
        lot.releaseOne()
        await eventually("a third call starts") { next.callCount == 3 && lot.parked == 2 }
        await letOthersRun()
        #expect(next.inFlight == 2)
        lot.open()
        for call in calls { #expect(try await call.value.get().freshness == .fresh) }
        #expect(next.callCount == 5)
        #expect(next.maxInFlight == 2)
    }

    @Test func aFailureGivesItsPlaceBack() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(ProviderError(.unavailable, "HTTP 503")), .success(9)])
        let step = ConcurrencyStep(next: next, slots: AsyncSemaphore(1), providerName: "P")
        #expect(await start(step).value.error?.message == "HTTP 503")
        #expect(try await start(step).value.get().current?.temperatureC == 9)
    }

    @Test func aCallCancelledWhileWaitingEndsWithoutAskingAndTakesNoPlace() async throws {
        let lot = ParkingLot()
        let next = parked(in: lot)
        let slots = AsyncSemaphore(1)
        let step = ConcurrencyStep(next: next, slots: slots, providerName: "P")
        let holder = start(step)
        await eventually("the first call is under way") { lot.parked == 1 }
        let waiter = start(step)
        await letOthersRun()
        waiter.cancel()
        let error = try #require(await waiter.value.error)
        #expect(error.code == .cancelled)
        #expect(error.reason == .cancelled)
        #expect(error.message == "P: cancelled")
        #expect(next.callCount == 1)

        // The place is still the holder's alone: one more call waits until it is given back.
        let later = start(step)
        await letOthersRun()
        #expect(next.callCount == 1)
        lot.releaseOne()
        #expect(try await holder.value.get().freshness == .fresh)
        await eventually("the later call starts") { lot.parked == 1 }
        lot.releaseOne()
        #expect(try await later.value.get().freshness == .fresh)
        #expect(next.callCount == 2)
        #expect(next.maxInFlight == 1)
    }

    @Test func aCallAlreadyCancelledIsNotAsked() async throws {
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let step = ConcurrencyStep(next: next, slots: AsyncSemaphore(1), providerName: "P")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await Result.of { () async throws(ProviderError) in try await step.answer(providerCall(clock: clock)) }
        }
        #expect(await task.value.error?.code == .cancelled)
        #expect(next.callCount == 0)
    }

    @Test func slotsAreSharedByEveryStepGivenThem() async throws {
        let lot = ParkingLot()
        let first = parked(in: lot)
        let second = parked(in: lot)
        let slots = AsyncSemaphore(1)
        let calls = [start(ConcurrencyStep(next: first, slots: slots, providerName: "P")),
                     start(ConcurrencyStep(next: second, slots: slots, providerName: "P"))]
        await eventually("one call is under way") { lot.parked == 1 }
        await letOthersRun()
        #expect(first.callCount + second.callCount == 1)
        lot.open()
        for call in calls { _ = await call.value }
        #expect(first.callCount + second.callCount == 2)
    }
}
