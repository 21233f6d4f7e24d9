import FoundationEssentials
import IsobarCore
import IsobarEngine

/// Engine storage over a shared Redis with the local store as first level and fallback: answers are read locally first and
/// kept in both; limits, cooldowns, breakers and leases live on the server, and locally (limits ÷ `expectedMachines`) while
/// it is away. HTTP validators stay local.
public enum SharedStorage {
    /// Storage for one command; `isFresh` says whether a local answer is young enough to serve without asking the server.
    public static func compose(local: EngineStorage, shared: RedisStore, state: SharedStoreState, expectedMachines: Int,
                               isFresh: @escaping @Sendable (CacheKey, CacheEntry) -> Bool) -> EngineStorage {
        let health = FallbackHealth(local: (local.cooldowns, local.breakers), shared: shared, state: state)
        // The local writes this storage queues are committed when the command finishes, whether or not its run ended.
        state.flushesAtFinish(local)
        return EngineStorage(
            cache: TieredCache(local: local.cache, shared: shared, state: state, isFresh: isFresh),
            ledger: FallbackLedger(local: local.ledger, shared: shared, state: state, expectedMachines: expectedMachines),
            cooldowns: health, breakers: health, locks: FallbackLock(local: local.locks, shared: shared, state: state),
            validators: local.validators)
    }
}

/// Answers from the local cache when it has a fresh one, else from the shared one (copied to the local cache), else the
/// local one however old; stored in both.
public struct TieredCache: ResponseCache {
    let local: any ResponseCache
    let shared: RedisStore
    let state: SharedStoreState
    let isFresh: @Sendable (CacheKey, CacheEntry) -> Bool

    /// The local entry when fresh; otherwise the newer of the local and the shared one.
    public func entry(for key: CacheKey) async throws(StorageError) -> CacheEntry? {
        // A copy of this answer still being written is read back, not missed.
        await state.writes.wait(for: key)
        var localError: StorageError?
        var near: CacheEntry?
        do {
            near = try await local.entry(for: key)
        } catch {
            localError = error
        }
        if let near, isFresh(key, near) { return near }
        guard let far = await state.attempt({ () async throws(StorageError) in try await shared.entry(for: key) }) ?? nil,
              far.fetchedAt > near?.fetchedAt ?? .distantPast else {
            if let localError { throw localError }
            return near
        }
        keepCopy(far, for: key)
        return far
    }

    /// A copy of a shared answer for the next command on this machine, written on a task of its own while the answer is
    /// delivered (`SharedStoreState.finish()` waits for it before the command ends); the answer is served whether or not it
    /// could be kept. Not queued in a local store that queues writes: that would commit it at the end of the run, after
    /// the answer is delivered rather than while it is.
    private func keepCopy(_ far: CacheEntry, for key: CacheKey) {
        state.writes.start(key) { [local] in
            do { try await local.store(far, for: key) } catch {}
        }
    }

    /// Keeps the entry locally and on the server (after any copy still being written, so that an older one never lands last).
    public func store(_ entry: CacheEntry, for key: CacheKey) async throws(StorageError) {
        _ = await state.attempt { () async throws(StorageError) in try await shared.store(entry, for: key) }
        await state.writes.wait(for: key)
        try await local.store(entry, for: key)
    }

    /// `store`, the server's copy awaited (other machines look there as soon as the lease is released) and the local one
    /// queued when the local cache queues writes.
    public func storeSoon(_ entry: CacheEntry, for key: CacheKey, failed: @escaping @Sendable (StorageError) -> Void) async {
        _ = await state.attempt { () async throws(StorageError) in try await shared.store(entry, for: key) }
        await state.writes.wait(for: key)
        await local.storeSoon(entry, for: key, failed: failed)
    }

    /// Deletes the entry in both (after any copy still being written).
    public func removeEntry(for key: CacheKey) async throws(StorageError) {
        _ = await state.attempt { () async throws(StorageError) in try await shared.removeEntry(for: key) }
        await state.writes.wait(for: key)
        try await local.removeEntry(for: key)
    }
}

/// Permits from the server's GCRA limiter, or, while it is away, from the local ledger with each limit divided by the
/// number of machines expected to share it.
///
/// The local ledger notes every call, the server's grants too, so that it knows this machine's calls in each window
/// whether or not the server is there: while the server is away, its grants are decided with them; calls it granted are
/// charged to the server with its next permit for the provider (before that permit is decided); and a server that comes
/// back empty (restarted) is seeded from its counts before it grants anything. So no window sees more than its limit from
/// this machine through a kill, a pause or a restart of the server.
public struct FallbackLedger: CallLedger {
    let local: any CallLedger
    let shared: RedisStore
    let state: SharedStoreState
    let expectedMachines: Int
    /// Calls granted locally and not yet charged to the server.
    let owed = OwedCalls()

    private static let localPrefix = "local:"
    private static let notedPrefix = "noted:"

    /// The server's decisions (noted locally), or the local ledger's over the divided limits.
    public func acquire(_ requests: [PermitRequest], now: Date) async throws(StorageError) -> [PermitDecision] {
        let providers = requests.map(\.provider)
        let charges = owed.take(providers)
        let local = local
        if let decisions = await state.attempt({ () async throws(StorageError) in
            try await shared.acquire(requests, now: now, owed: charges) { request throws(StorageError) in
                try await local.usage(provider: request.provider, windows: request.windows, now: now)
            }
        }) {
            var noted: [PermitDecision] = []
            for (request, decision) in zip(requests, decisions) {
                guard case .granted = decision, !request.windows.isEmpty else {
                    noted.append(decision)
                    continue
                }
                noted.append(.granted(await note(request, now: now)))
            }
            return noted
        }
        owed.restore(charges, for: providers)
        let divided = requests.map { request in
            var share = request
            share.windows = Self.share(request.windows, machines: expectedMachines)
            return share
        }
        let decisions = try await local.acquire(divided, now: now)
        return zip(requests, decisions).map { request, decision in
            guard case .granted(let call) = decision else { return decision }
            if !request.windows.isEmpty { owed.add(request.cost, for: request.provider) }
            return .granted(CallID(Self.localPrefix + call.rawValue))
        }
    }

    /// Notes a call the server granted in the local ledger (with no limit: the server decided); the call's id names the
    /// local note, settled with it. A note that cannot be written leaves the call granted, only unseen by a later seeding.
    private func note(_ request: PermitRequest, now: Date) async -> CallID {
        var unlimited = request
        unlimited.windows = request.windows.map { RateLimit(limit: .greatestFiniteMagnitude, perSeconds: $0.perSeconds) }
        do {
            if case .granted(let call) = try await local.acquire(unlimited, now: now) { return CallID(Self.notedPrefix + call.rawValue) }
        } catch {
            // Granted all the same: only a later seeding of a restarted server misses this call.
        }
        return CallID("redis")
    }

    /// The local ledger's id of a call granted locally or noted there; nil for one the server granted alone.
    private static func localCall(_ call: CallID) -> CallID? {
        for prefix in [localPrefix, notedPrefix] where call.rawValue.hasPrefix(prefix) {
            return CallID(String(call.rawValue.dropFirst(prefix.count)))
        }
        return nil
    }

    /// Settles a call in the local ledger, where it was granted or noted.
    public func settle(_ call: CallID, at: Date) async throws(StorageError) {
        guard let kept = Self.localCall(call) else { return }
        try await local.settle(kept, at: at)
    }

    /// `settle`, queued when the local ledger queues writes.
    public func settleSoon(_ call: CallID, at: Date, failed: @escaping @Sendable (StorageError) -> Void) async {
        guard let kept = Self.localCall(call) else { return }
        await local.settleSoon(kept, at: at, failed: failed)
    }

    /// The server's usage, or the local one.
    public func usage(provider: String, windows: [RateLimit], now: Date) async throws(StorageError) -> [Double] {
        if let used = await state.attempt({ () async throws(StorageError) in try await shared.usage(provider: provider, windows: windows, now: now) }) {
            return used
        }
        return try await local.usage(provider: provider, windows: windows, now: now)
    }

    /// One machine's share of each window: its limit divided by `machines` (at least 1).
    public static func share(_ windows: [RateLimit], machines: Int) -> [RateLimit] {
        windows.map { RateLimit(limit: $0.limit / Double(max(1, machines)), perSeconds: $0.perSeconds) }
    }
}

/// Cooldowns and breakers on the server, or locally while it is away; cooldowns are kept in both, so that one seen while
/// the server was away still holds.
public struct FallbackHealth: CooldownStore, BreakerStore {
    let local: (cooldowns: any CooldownStore, breakers: any BreakerStore)
    let shared: RedisStore
    let state: SharedStoreState

    /// The later of the server's and the local cooldown.
    public func cooldown(provider: String, now: Date) async throws(StorageError) -> Cooldown? {
        let far = await state.attempt { () async throws(StorageError) in try await shared.cooldown(provider: provider, now: now) } ?? nil
        let near = try await local.cooldowns.cooldown(provider: provider, now: now)
        guard let far else { return near }
        guard let near else { return far }
        return far.until >= near.until ? far : near
    }

    /// Sets the cooldown in both.
    public func setCooldown(_ cooldown: Cooldown, provider: String) async throws(StorageError) {
        _ = await state.attempt { () async throws(StorageError) in try await shared.setCooldown(cooldown, provider: provider) }
        try await local.cooldowns.setCooldown(cooldown, provider: provider)
    }

    /// Clears the cooldown in both.
    public func clearCooldown(provider: String) async throws(StorageError) {
        _ = await state.attempt { () async throws(StorageError) in try await shared.clearCooldown(provider: provider) }
        try await local.cooldowns.clearCooldown(provider: provider)
    }

    /// The server's breaker, or the local one.
    public func breaker(provider: String) async throws(StorageError) -> BreakerState {
        if let state = await state.attempt({ () async throws(StorageError) in try await shared.breaker(provider: provider) }) { return state }
        return try await local.breakers.breaker(provider: provider)
    }

    /// Records the outcome on the server, or locally.
    public func recordOutcome(provider: String, succeeded: Bool, threshold: Int, now: Date, failure: String?) async throws(StorageError) -> BreakerState {
        if let state = await state.attempt({ () async throws(StorageError) in
            try await shared.recordOutcome(provider: provider, succeeded: succeeded, threshold: threshold, now: now, failure: failure)
        }) { return state }
        return try await local.breakers.recordOutcome(provider: provider, succeeded: succeeded, threshold: threshold, now: now, failure: failure)
    }

    /// `recordOutcome`: on the server, awaited (the breaker is one for every machine), or, while it is away, queued when
    /// the local store queues writes.
    public func recordOutcomeSoon(provider: String, succeeded: Bool, threshold: Int, now: Date,
                                  failed: @escaping @Sendable (StorageError) -> Void) async {
        if await state.attempt({ () async throws(StorageError) in
            try await shared.recordOutcome(provider: provider, succeeded: succeeded, threshold: threshold, now: now)
        }) != nil { return }
        await local.breakers.recordOutcomeSoon(provider: provider, succeeded: succeeded, threshold: threshold, now: now, failed: failed)
    }

    /// Closes the breaker in both.
    public func resetBreaker(provider: String) async throws(StorageError) {
        _ = await state.attempt { () async throws(StorageError) in try await shared.resetBreaker(provider: provider) }
        try await local.breakers.resetBreaker(provider: provider)
    }
}

/// Fetch leases on the server, or locally while it is away.
public struct FallbackLock: FetchLock {
    let local: any FetchLock
    let shared: RedisStore
    let state: SharedStoreState

    /// Takes the lease on the server, or locally.
    public func acquire(_ key: String, owner: LeaseOwner, seconds: Double, now: Date) async throws(StorageError) -> Bool {
        if let taken = await state.attempt({ () async throws(StorageError) in try await shared.acquire(key, owner: owner, seconds: seconds, now: now) }) {
            return taken
        }
        return try await local.acquire(key, owner: owner, seconds: seconds, now: now)
    }

    /// Renews the lease on the server, or locally.
    public func renew(_ key: String, owner: LeaseOwner, seconds: Double, now: Date) async throws(StorageError) -> Bool {
        if let renewed = await state.attempt({ () async throws(StorageError) in try await shared.renew(key, owner: owner, seconds: seconds, now: now) }) {
            return renewed
        }
        return try await local.renew(key, owner: owner, seconds: seconds, now: now)
    }

    /// Releases the lease in both (it may have been taken in either).
    public func release(_ key: String, owner: LeaseOwner) async throws(StorageError) {
        _ = await state.attempt { () async throws(StorageError) in try await shared.release(key, owner: owner) }
        try await local.release(key, owner: owner)
    }

    /// `release`: on the server, awaited (other machines take the lease next), and locally, queued when the local store
    /// queues writes.
    public func releaseSoon(_ key: String, owner: LeaseOwner, failed: @escaping @Sendable (StorageError) -> Void) async {
        _ = await state.attempt { () async throws(StorageError) in try await shared.release(key, owner: owner) }
        await local.releaseSoon(key, owner: owner, failed: failed)
    }

    /// Waits with `LeaseBackoff` instead of the step's fixed interval: the holder is on another machine, so its answer is
    /// looked for soon and then ever less often.
    public func awaitTurn(_ key: String, attempt: Int, pollSeconds: Double, time: any TimeSource) async throws {
        try await time.sleep(seconds: LeaseBackoff.seconds(attempt: attempt, random: Double.random(in: 0...1)))
    }
}

extension TieredCache: QueuedWriting {
    /// Waits for the local cache's queued writes. Not for the copies of shared answers still being written: the run's
    /// end would then wait for them, where they can go on while it is delivered (`SharedStoreState.finish()` waits for them).
    public func flushQueuedWrites() async {
        await local.asQueuedWriting?.flushQueuedWrites()
    }
}

extension FallbackLedger: QueuedWriting {
    /// Waits for the local ledger's queued writes (the server's are never queued).
    public func flushQueuedWrites() async {
        await local.asQueuedWriting?.flushQueuedWrites()
    }
}

extension FallbackHealth: QueuedWriting {
    /// Waits for the local cooldowns' and breakers' queued writes (the server's are never queued).
    public func flushQueuedWrites() async {
        await local.cooldowns.asQueuedWriting?.flushQueuedWrites()
        await local.breakers.asQueuedWriting?.flushQueuedWrites()
    }
}

extension FallbackLock: QueuedWriting {
    /// Waits for the local leases' queued writes (the server's are never queued).
    public func flushQueuedWrites() async {
        await local.asQueuedWriting?.flushQueuedWrites()
    }
}
