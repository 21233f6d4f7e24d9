import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Synchronization
import Testing

/// Draws random delays from a seeded generator (or a fixed fraction of the range), keeping every range and value drawn.
final class RecordingRandom: Sendable {
    private let state: Mutex<(generator: SeededGenerator, ranges: [ClosedRange<Double>], values: [Double])>
    private let fraction: Double?

    /// Seeded draws, or always `fraction` of the way up the range when given.
    init(seed: UInt64 = 42, fraction: Double? = nil) {
        state = Mutex((SeededGenerator(seed: seed), [], []))
        self.fraction = fraction
    }

    var ranges: [ClosedRange<Double>] { state.withLock { $0.ranges } }
    var values: [Double] { state.withLock { $0.values } }

    var draw: @Sendable (ClosedRange<Double>) -> Double {
        { [self] range in
            state.withLock { state in
                let value = fraction.map { range.lowerBound + $0 * (range.upperBound - range.lowerBound) }
                    ?? Double.random(in: range, using: &state.generator)
                state.ranges.append(range)
                state.values.append(value)
                return value
            }
        }
    }
}

@Suite("RetryStep")
struct RetryStepTests {
    let clock = ManualClock()

    func step(_ next: any PipelineStep, maxRetries: Int = 2, baseDelay: Double = 0.5,
              random: @escaping @Sendable (ClosedRange<Double>) -> Double = { $0.lowerBound }) -> RetryStep {
        RetryStep(next: next, maxRetries: maxRetries, baseDelaySeconds: baseDelay, time: clock, random: random, providerName: "P")
    }

    func answer(_ step: RetryStep, within seconds: Double = 60) async -> Result<WeatherReport, ProviderError> {
        await Result.of { () async throws(ProviderError) in try await step.answer(providerCall(clock: clock, within: seconds)) }
    }

    /// Answers through `step` in a task, moving the clock on by each backoff the step draws as soon as it sleeps.
    func answerDriven(_ step: RetryStep, random: RecordingRandom, within seconds: Double = 60) async -> Result<WeatherReport, ProviderError> {
        let done = Flag()
        let task = Task {
            defer { done.set() }
            return await answer(step, within: seconds)
        }
        while !done.isSet {
            await eventually("the step sleeps or ends") { done.isSet || clock.sleeperCount == 1 }
            if clock.sleeperCount == 1, let delay = random.values.last { clock.advance(by: delay) }
        }
        return await task.value
    }

    @Test func aServerErrorThatSaysWhenToComeBackIsNotRetried() async throws {
        let failure = ProviderError(.unavailable, "P is unavailable (HTTP 503); retry in 30 s", retryAfterSeconds: 30)
        let next = ScriptedStep(clock: clock, script: [.failure(failure), .success(9)])
        let random = RecordingRandom()
        let error = try #require(await answer(step(next, random: random.draw)).error)
        #expect(error.retryAfterSeconds == 30)
        #expect(next.callCount == 1)
    }

    @Test func anAnswerAtTheFirstAttemptIsNotRetried() async throws {
        let next = ScriptedStep(clock: clock, script: [.success(9)])
        let random = RecordingRandom()
        #expect(try await answer(step(next, random: random.draw)).get().current?.temperatureC == 9)
        #expect(next.callCount == 1)
        #expect(random.ranges.isEmpty)
    }

    @Test(arguments: [
        ProviderError(.unavailable, "P answered HTTP 503"), ProviderError(.timeout, "P timed out"),
        ProviderError(.unavailable, "P: connection refused", reason: .connectionRefused),
    ])
    func serverErrorsAndTimeoutsAreRetriedUpToMaxRetries(_ failure: ProviderError) async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(failure)])
        let error = try #require(await answer(step(next, maxRetries: 3)).error)
        #expect(error.message == failure.message)
        #expect(next.callCount == 4)
        #expect(RetryStep.isRetryable(failure))
    }

    @Test func aRetryThatSucceedsGivesItsAnswer() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(ProviderError(.unavailable, "HTTP 502")), .failure(ProviderError(.timeout, "slow")),
                                                       .success(9)])
        let report = try await answer(step(next)).get()
        #expect(report.current?.temperatureC == 9)
        #expect(next.callCount == 3)
    }

    @Test func noRetriesMeansOneAttempt() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(ProviderError(.unavailable, "HTTP 503"))])
        _ = await answer(step(next, maxRetries: 0))
        #expect(next.callCount == 1)
    }

    @Test(arguments: [
        ProviderError(.badRequest, "P refused the parameters (HTTP 400)"), ProviderError(.notFound, "HTTP 404"),
        ProviderError(.unauthorized, "HTTP 401"), ProviderError(.rateLimited(retryAfterSeconds: 5), "HTTP 429"),
        ProviderError(.badResponse(path: "$"), "unreadable"), ProviderError(.notConfigured, "no key"),
        ProviderError(.unsupported, "cannot answer"), ProviderError(.cancelled, "cancelled", reason: .cancelled),
    ])
    func otherFailuresAreNeverRetried(_ failure: ProviderError) async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(failure), .success(9)])
        let error = try #require(await answer(step(next, maxRetries: 5)).error)
        #expect(error.message == failure.message)
        #expect(next.callCount == 1)
        #expect(!RetryStep.isRetryable(failure))
    }

    @Test func delaysAreFullJitterWithinADoublingCeiling() async throws {
        let random = RecordingRandom(seed: 7)
        let next = ScriptedStep(clock: clock, script: [.failure(ProviderError(.unavailable, "HTTP 503"))])
        let start = clock.now()
        _ = await answerDriven(step(next, maxRetries: 3, baseDelay: 0.5, random: random.draw), random: random)
        #expect(next.callCount == 4)
        // Each retry draws from 0 up to a ceiling that doubles: 0.5, 1, 2 s (the last failure's draw is not slept).
        #expect(Array(random.ranges.prefix(3)) == [0...0.5, 0...1.0, 0...2.0])
        let times = next.times.map { $0.timeIntervalSince(start) }
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.count == 3)
        for (index, gap) in gaps.enumerated() {
            #expect(gap >= 0 && gap <= 0.5 * Double(1 << index) + 1e-9, "retry \(index + 1) waited \(gap) s")
            #expect(isClose(gap, random.values[index], 1e-6), "retry \(index + 1) did not wait the delay drawn")
        }
        // Jitter: the seeded draws are not all at the ceiling.
        #expect(zip(gaps, [0.5, 1, 2]).contains { $0 < $1 - 0.01 })
    }

    @Test func neverRetriesWhenTheBackoffWouldEndPastTheDeadline() async throws {
        let random = RecordingRandom(fraction: 1)
        let next = ScriptedStep(clock: clock, script: [.failure(ProviderError(.unavailable, "HTTP 503"))])
        let start = clock.now()
        // Backoffs of 1 s then 2 s: the second would end 3 s in, past the 2.5 s deadline.
        let error = try #require(await answerDriven(step(next, maxRetries: 5, baseDelay: 1, random: random.draw), random: random,
                                                    within: 2.5).error)
        #expect(error.message == "HTTP 503")
        #expect(next.callCount == 2)
        #expect(next.times.map { $0.timeIntervalSince(start) } == [0, 1])
        #expect(clock.now().timeIntervalSince(start) == 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingABackoffEndsTheCallWithoutAnotherAttempt() async throws {
        let next = ScriptedStep(clock: clock, script: [.failure(ProviderError(.unavailable, "HTTP 503"))])
        let task = Task { await answer(step(next, random: { $0.upperBound })) }
        await eventually("the step backs off") { clock.sleeperCount == 1 }
        task.cancel()
        let error = try #require(await task.value.error)
        #expect(error.code == .cancelled)
        #expect(error.reason == .cancelled)
        #expect(error.message == "P: cancelled")
        #expect(next.callCount == 1)
    }
}
