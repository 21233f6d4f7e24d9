import FoundationEssentials
import IsobarCore

/// Lets one caller at a time, in any process or machine sharing the lock, fetch a given answer; the others wait for it
/// to land in the cache and take it from there.
///
/// The holder's lease is renewed while it fetches, so a slow fetch keeps it; a holder that dies stops renewing and loses
/// the lease when it expires. A lock that cannot be used does not stop the call (it is asked directly).
public struct SingleFlightStep: PipelineStep {
    /// The step that fetches.
    public let next: any PipelineStep
    /// The provider's cached answers: checked after taking the lease, written before releasing it.
    public let cache: ReportCache
    /// The shared leases.
    public let locks: any FetchLock
    /// Seconds a lease lasts unless renewed.
    public let leaseSeconds: Double
    /// Seconds between checks while another holder fetches (the lock may wait otherwise; see `FetchLock.awaitTurn`).
    public let pollSeconds: Double
    /// True to accept cached answers within their time to live (false under `--refresh`: only answers fetched after the call began).
    public let readCache: Bool
    /// The clock.
    public let time: any TimeSource
    /// Where lock failures go.
    public let diagnostics: any DiagnosticSink
    /// This step's identity; each call holds its lease as an owner of its own, named after it.
    public let owner: LeaseOwner
    /// True to cache only the slots the call asked for (see `EngineOptions.cachesOnlyAskedKinds`).
    public let cachesOnlyAskedKinds: Bool
    /// When the leases and the cache are one backend that reads the cache with the lease: it; nil to read the cache after.
    public let lookup: (any LeaseLookup)?
    /// The key the provider's cooldown and breaker are read under with the lease (for the cooldown step below, when they
    /// are the same backend as `lookup`); nil to leave them to that step.
    public let healthKey: String?
    /// The permit a call needs from the rate-limit step below, taken with the lease (when the ledger is the same backend as
    /// `lookup` and the provider's health is read with it); nil to leave permits to that step.
    public let permitRequest: (@Sendable (ProviderCall) -> PermitRequest)?
    /// The provider's cache misses in a row, shared with the cache step above: an answer found cached with the lease ends
    /// the streak.
    public let misses: CacheMissStreak?
    /// How a waiter learns that the fetch it waited for failed, to take that failure instead of asking again; nil to ask again.
    public let failedFlight: FailedFlight?
    private let renewer: LeaseRenewer

    /// Wraps `next`.
    public init(next: any PipelineStep, cache: ReportCache, locks: any FetchLock, leaseSeconds: Double, pollSeconds: Double = 0.05,
                readCache: Bool, time: any TimeSource, diagnostics: any DiagnosticSink, owner: LeaseOwner = .random(),
                cachesOnlyAskedKinds: Bool = false, lookup: (any LeaseLookup)? = nil, healthKey: String? = nil,
                permitRequest: (@Sendable (ProviderCall) -> PermitRequest)? = nil, misses: CacheMissStreak? = nil,
                failedFlight: FailedFlight? = nil) {
        self.next = next
        self.cache = cache
        self.locks = locks
        self.leaseSeconds = leaseSeconds
        self.pollSeconds = pollSeconds
        self.readCache = readCache
        self.time = time
        self.diagnostics = diagnostics
        self.owner = owner
        self.cachesOnlyAskedKinds = cachesOnlyAskedKinds
        self.lookup = lookup
        self.healthKey = lookup == nil ? nil : healthKey
        self.permitRequest = self.healthKey == nil ? nil : permitRequest
        self.misses = misses
        self.failedFlight = failedFlight
        renewer = LeaseRenewer(locks: locks, leaseSeconds: leaseSeconds, time: time, diagnostics: diagnostics)
    }

    /// Takes the lease (or waits for the holder's answer), fetches, stores, releases.
    public func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport {
        let key = cache.leaseKey(call.request)
        // Calls through one step (one engine asked about a place twice at once) must not share a lease.
        let owner = self.owner.child()
        let started = time.now()
        let name = cache.provider.displayName
        var waits = 0
        // The failures the provider's breaker had counted when this call found another holder fetching (see `FailedFlight`).
        var failuresBefore: Int?
        while true {
            if let look = await acquire(key, owner: owner, call) {
                return try await holding(key, owner: owner) { () async throws(ProviderError) -> WeatherReport in
                    let permit = look.permit.map(PermitHandoff.init)
                    // Another holder may have just answered: read with the lease when the backend did, else now.
                    let cached = if let entries = look.entries {
                        cache.usable(call.request, entries: entries, fetchedAfter: started, withinTTL: readCache)
                    } else {
                        await cache.usable(call.request, fetchedAfter: started, withinTTL: readCache)
                    }
                    if let cached {
                        misses?.found()
                        await withdraw(permit)
                        return cached
                    }
                    // The holder this call waited for failed (and let its lease go with no answer): take its failure.
                    if let before = failuresBefore, let failedFlight,
                       let failure = await failedFlight.failure(since: before, read: look.health?.breaker) {
                        await withdraw(permit)
                        throw failure
                    }
                    var call = call
                    call.healthReadWithLease = look.health
                    call.permitTakenWithLease = permit
                    let report: WeatherReport
                    do throws(ProviderError) {
                        report = try await next.answer(call)
                    } catch {
                        await withdraw(permit)
                        throw error
                    }
                    await withdraw(permit)
                    await cache.store(report, slots: cachesOnlyAskedKinds ? ReportCache.slots(call.request.kinds) : nil, soon: true)
                    return report
                }
            }
            if waits == 0, let failedFlight { failuresBefore = await failedFlight.failuresNow() }
            do {
                try await locks.awaitTurn(key, attempt: waits, pollSeconds: pollSeconds, time: time)
            } catch {
                throw ProviderError(.cancelled, "\(name): cancelled", reason: .cancelled)
            }
            waits += 1
            if let cached = await cache.usable(call.request, fetchedAfter: started, withinTTL: readCache) { return cached }
        }
    }

    /// What the holder of a lease read with it: the cached entries (nil when not read with the lease), the health, the permit.
    private struct Taken {
        var entries: [CacheEntry?]?
        var health: HealthReading?
        var permit: CallID?
    }

    /// Takes the lease, with what `lookup` reads alongside; nil when another holder has it. A lock that cannot be used
    /// counts as taken (the call goes on without it).
    private func acquire(_ key: String, owner: LeaseOwner, _ call: ProviderCall) async -> Taken? {
        do {
            guard let lookup else {
                return try await locks.acquire(key, owner: owner, seconds: leaseSeconds, now: time.now()) ? Taken() : nil
            }
            let look = try await lookup.acquire(key, owner: owner, seconds: leaseSeconds, now: time.now(), reading: cache.keys(call.request),
                                                healthOf: healthKey, permit: permitRequest?(call))
            return look.acquired ? Taken(entries: look.entries, health: look.health, permit: look.permit) : nil
        } catch {
            diagnostics.report(Diagnostic(.lock, "cannot take the fetch lease \(key): \(error.message)"))
            return Taken()
        }
    }

    /// Forgets the permit taken with the lease when the call below did not use it (queued when the backend queues writes).
    private func withdraw(_ permit: PermitHandoff?) async {
        guard let lookup, let unused = permit?.take() else { return }
        let diagnostics = diagnostics
        await lookup.withdrawSoon(unused) { error in
            diagnostics.report(Diagnostic(.ledger, "cannot withdraw an unused permit: \(error.message)"))
        }
    }

    /// Runs `body` while the lease is renewed (at least every third of its length), then releases it.
    private func holding(_ key: String, owner: LeaseOwner,
                         _ body: () async throws(ProviderError) -> WeatherReport) async throws(ProviderError) -> WeatherReport {
        let renewal = renewer.hold(key, owner: owner)
        let result: Result<WeatherReport, ProviderError>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        renewer.letGo(renewal)
        // Queued behind the answer's store when the store queues writes (see `QueuedWriting`): whoever takes the lease next
        // finds the answer.
        let diagnostics = diagnostics
        await locks.releaseSoon(key, owner: owner) { error in
            diagnostics.report(Diagnostic(.lock, "cannot release the fetch lease \(key): \(error.message)"))
        }
        return try result.get()
    }
}
