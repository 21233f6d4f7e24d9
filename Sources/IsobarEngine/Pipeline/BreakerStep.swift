import FoundationEssentials
import IsobarCore
import Synchronization

/// Skips a provider whose breaker is open; counts each call's failure (its retries included) as one; once the open period has
/// passed, lets exactly one call through as a probe, across processes, by a lease on `breaker|<storageKey>`.
public struct BreakerStep: PipelineStep {
    /// The step guarded.
    public let next: any PipelineStep
    /// The provider guarded.
    public let provider: any WeatherProvider
    /// The shared breaker state.
    public let breakers: any BreakerStore
    /// Consecutive failed calls that open the breaker.
    public let threshold: Int
    /// Seconds an open breaker skips before one call is let through.
    public let openSeconds: Double
    /// The clock.
    public let time: any TimeSource
    /// The key its state is stored under: its id and endpoint (see `ProviderBinding.storageKey`).
    public let storageKey: String
    /// Where store failures go.
    public let diagnostics: any DiagnosticSink
    /// Leases that admit one half-open probe at a time; nil to let every caller through once the open period has passed.
    public let probes: (any FetchLock)?
    /// Failures this step recorded so far: a success need not be written when its call found the breaker clear and the
    /// step has recorded none at all (see `answer`).
    private let failuresRecorded = FailureCount()

    /// Wraps `next`.
    public init(next: any PipelineStep, provider: any WeatherProvider, breakers: any BreakerStore, threshold: Int, openSeconds: Double,
                time: any TimeSource, diagnostics: any DiagnosticSink, storageKey: String? = nil, probes: (any FetchLock)? = nil) {
        self.next = next
        self.provider = provider
        self.breakers = breakers
        self.threshold = threshold
        self.openSeconds = openSeconds
        self.time = time
        self.diagnostics = diagnostics
        self.storageKey = storageKey ?? provider.id
        self.probes = probes
    }

    /// Skips while open; otherwise calls and records the outcome.
    /// A success is not written when the breaker was read clear, without failures, for this call, and this step has never
    /// recorded a failure: deleting a row that is not there changes nothing. Once it has (a failure may land between the
    /// call's read and its answer, however early the read), every success is written.
    public func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport {
        let probe = try await admit(call)
        do {
            let report = try await next.answer(call)
            if call.breakerReadWithCooldown != BreakerState() || failuresRecorded.value != 0 { await recordSuccess() }
            await release(probe)
            return report
        } catch {
            if Self.countsAgainst(error) { await recordFailure(error) }
            await release(probe)
            throw error
        }
    }

    /// The lease key of the provider's half-open probe.
    public var probeKey: String { "breaker|\(storageKey)" }

    /// Failures that say the provider is unwell (not the caller's fault, not a limit).
    public static func countsAgainst(_ error: ProviderError) -> Bool {
        switch error.code {
        case .unavailable, .timeout, .badResponse: !(error.reason?.isSkip ?? false) && error.reason != .cancelled
        default: false
        }
    }

    /// Throws while open; when half-open, returns the probe's lease owner, or throws when another caller holds the probe.
    private func admit(_ call: ProviderCall) async throws(ProviderError) -> LeaseOwner? {
        guard try await isHalfOpen(known: call.breakerReadWithCooldown), let probes else { return nil }
        let owner = LeaseOwner.random()
        let now = time.now()
        let acquired: Bool
        do {
            acquired = try await probes.acquire(probeKey, owner: owner, seconds: max(1, call.deadline.timeIntervalSince(now)), now: now)
        } catch {
            diagnostics.report(Diagnostic(.health, "cannot take the breaker probe of \(provider.id): \(error.message)"))
            return nil
        }
        guard acquired else {
            throw ProviderError(.unavailable, "\(provider.displayName): not asked while another run tries it again after failed attempts",
                                reason: .breakerOpen)
        }
        // A probe that ended between the read and the lease has decided already: read again (open again: skip).
        do {
            _ = try await isHalfOpen()
        } catch {
            await release(owner)
            throw error
        }
        return owner
    }

    /// False when closed, true once the open period has passed; throws `breakerOpen` while open. `known` is the state when
    /// it was just read (with the cooldown); nil to read it.
    private func isHalfOpen(known: BreakerState? = nil) async throws(ProviderError) -> Bool {
        let state: BreakerState
        do {
            if let known {
                state = known
            } else {
                state = try await breakers.breaker(provider: storageKey)
            }
        } catch {
            diagnostics.report(Diagnostic(.health, "cannot read the breaker of \(provider.id): \(error.message)"))
            return false
        }
        guard let openedAt = state.openedAt else { return false }
        let reopens = openedAt.addingTimeInterval(openSeconds)
        guard time.now() < reopens else { return true }
        throw ProviderError(.unavailable,
                            "\(provider.displayName): not asked for the next \(MessageTime.duration(reopens.timeIntervalSince(time.now()).rounded(.up))) "
                                + "(until \(MessageTime.clock(reopens)) UTC), after \(state.failures) failed attempts"
                                + (state.lastFailure.map { "; the last: \($0)" } ?? ""),
                            reason: .breakerOpen)
    }

    private func release(_ owner: LeaseOwner?) async {
        guard let owner, let probes else { return }
        do {
            try await probes.release(probeKey, owner: owner)
        } catch {
            diagnostics.report(Diagnostic(.health, "cannot release the breaker probe of \(provider.id): \(error.message)"))
        }
    }

    /// A success, queued when the store queues writes (see `QueuedWriting`): failures are recorded before the call returns.
    private func recordSuccess() async {
        let (diagnostics, id) = (diagnostics, provider.id)
        await breakers.recordOutcomeSoon(provider: storageKey, succeeded: true, threshold: threshold, now: time.now()) { error in
            diagnostics.report(Diagnostic(.health, "cannot record the breaker of \(id): \(error.message)"))
        }
    }

    /// Counts a failure, keeping what it said without the provider's name (the skip message names the provider already).
    private func recordFailure(_ error: ProviderError) async {
        failuresRecorded.add()
        let prefix = provider.displayName + ": "
        let said = error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
        do {
            _ = try await breakers.recordOutcome(provider: storageKey, succeeded: false, threshold: threshold, now: time.now(), failure: said)
        } catch {
            diagnostics.report(Diagnostic(.health, "cannot record the breaker of \(provider.id): \(error.message)"))
        }
    }
}

/// A count of failures shared by the copies of a step.
private final class FailureCount: Sendable {
    /// The count.
    private let count = Atomic<Int>(0)

    /// The count now.
    var value: Int { count.load(ordering: .acquiring) }

    /// Counts one more.
    func add() { count.add(1, ordering: .releasing) }
}
