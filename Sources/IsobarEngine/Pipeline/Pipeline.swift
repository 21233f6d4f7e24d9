import FoundationEssentials
import IsobarCore

/// Composes one provider's pipeline. The order is fixed and is the order written here, outermost first:
///
/// 0. budget — the provider's own `timeout_s`, when configured, narrows the command's deadline for all its attempts;
/// 1. stale-if-error — on any failure below, a cached answer younger than `max_stale_s`, marked stale;
/// 2. cache — a fresh cached answer ends the call (offline: any cached answer, or skipped); after a run of misses its read
///    is left to the single-flight step, which reads the cache again under its lease, until an answer is found cached;
/// 3. single flight — one lease per provider, slots and place; the others wait for the holder's answer. When one backend
///    keeps the leases, the cache, the health and the ledger, taking the lease also reads the cache again, the cooldown and
///    the breaker, and takes the first permit (see `LeaseLookup`): the steps below use what it read and took. A waiter whose
///    holder failed (its failure counted by the breaker while the waiter waited) takes that failure (see `FailedFlight`);
/// 4. cooldown — a provider that sent Retry-After is waited out, or skipped when the wait is long (capped at `max_cooldown_s`);
///    a batch waits out a 429 and asks again;
/// 5. breaker — open: skipped at once; a call's failure (retries included) counts once; half-open: one probe across processes;
/// 6. retry — 5xx, timeouts and connection failures, full jitter, within the deadline;
/// 7. rate limit — a permit from the call ledger for each attempt (so a retry is counted like any call);
/// 8. concurrency — at most `slots` calls in flight to the provider (see `Engine.callSlots`); a call that gets its slot
///    during a Retry-After pause (set by the cooldown step) waits it out first;
/// 9. the provider's fetch, sending conditional requests when validators are kept (not under `--record`) and reading
///    each answer's caching headers for the cache step.
///
/// Retry sits outside the rate limit so that every attempt the provider sees takes its own permit.
public enum Pipeline {
    /// The pipeline for `binding`: the bare fetch when there is no storage or no policy (replays), the full chain otherwise.
    public static func compose(_ binding: ProviderBinding, storage: EngineStorage?, options: EngineOptions, time: any TimeSource,
                               random: @escaping @Sendable (ClosedRange<Double>) -> Double, diagnostics: any DiagnosticSink,
                               slots: AsyncSemaphore) -> (step: any PipelineStep, stale: StaleIfErrorStep?) {
        let provider = binding.provider
        let validators = binding.policy == nil ? nil : storage?.validators
        let paused = ProviderPause()
        let fetch = ConcurrencyStep(next: FetchStep(provider: provider, transport: binding.transport, time: time, validators: validators,
                                                    conditional: options.sendsValidators, storageKey: binding.storageKey,
                                                    diagnostics: diagnostics, onlyAskedKinds: options.cachesOnlyAskedKinds),
                                    slots: slots, providerName: provider.displayName, pause: paused, time: time)
        guard let policy = binding.policy, let storage else { return (fetch, nil) }
        let key = binding.storageKey
        let cache = ReportCache(provider: provider, cache: storage.cache, policy: policy, maxAgeSeconds: options.maxAgeSeconds,
                                time: time, diagnostics: diagnostics, storageKey: key)
        let limited = RateLimitStep(next: fetch, provider: provider, windows: policy.rateLimits, ledger: storage.ledger,
                                    time: time, diagnostics: diagnostics, storageKey: key)
        let retried = RetryStep(next: limited, maxRetries: options.maxRetries, baseDelaySeconds: options.retryBaseDelaySeconds,
                                time: time, random: random, providerName: provider.displayName)
        let guarded = BreakerStep(next: retried, provider: provider, breakers: storage.breakers, threshold: options.breakerThreshold,
                                  openSeconds: options.breakerOpenSeconds, time: time, diagnostics: diagnostics, storageKey: key,
                                  probes: storage.locks)
        let cooled = CooldownStep(next: guarded, provider: provider, cooldowns: storage.cooldowns,
                                  longestWaitSeconds: options.longestWaitSeconds, maxCooldownSeconds: policy.maxCooldownSeconds, time: time,
                                  diagnostics: diagnostics, storageKey: key, waitsForRateLimits: options.waitsForRateLimits, pause: paused,
                                  health: oneHealthBackend(storage))
        let lookup = leaseLookupBackend(storage)
        // The single-flight step reads the cache again under its lease: after a run of misses, the cache step's read is skipped.
        let misses = CacheMissStreak()
        // The first permit is taken with the lease when the ledger is the lease's backend too (the rate-limit step takes it).
        let permitRequest = policy.rateLimits.isEmpty || !isOneObject(storage.ledger, lookup) ? nil
            : Self.permitRequest(provider: provider, storageKey: key, windows: policy.rateLimits)
        let single = SingleFlightStep(next: cooled, cache: cache, locks: storage.locks, leaseSeconds: options.leaseSeconds,
                                      readCache: options.readCache, time: time, diagnostics: diagnostics,
                                      cachesOnlyAskedKinds: options.cachesOnlyAskedKinds, lookup: lookup,
                                      healthKey: lookup.flatMap { isOneObject($0, oneHealthBackend(storage)) ? key : nil },
                                      permitRequest: permitRequest, misses: misses,
                                      failedFlight: FailedFlight(breakers: storage.breakers, storageKey: key, providerName: provider.displayName))
        let cached = CacheStep(next: single, cache: cache, readCache: options.readCache, offline: options.offline, misses: misses)
        let stale = StaleIfErrorStep(next: cached, cache: cache)
        guard let budget = policy.budgetSeconds else { return (stale, stale) }
        return (BudgetStep(next: stale, budgetSeconds: budget, time: time), stale)
    }

    /// The permit the rate-limit step asks for a call, as a function of the call.
    private static func permitRequest(provider: any WeatherProvider, storageKey: String,
                                      windows: [RateLimit]) -> @Sendable (ProviderCall) -> PermitRequest {
        { call in PermitRequest(provider: storageKey, windows: windows, cost: provider.callCost(of: call.request), deadline: call.deadline) }
    }

    /// The storage's cooldowns when they are also its breakers (one object that reads both at once), else nil.
    private static func oneHealthBackend(_ storage: EngineStorage) -> (any ProviderHealthStore)? {
        guard let health = storage.cooldowns.asHealthStore, isOneObject(storage.breakers, health) else { return nil }
        return health
    }

    /// The storage's leases when they are also its cache (one object that reads the cache with a lease), else nil.
    private static func leaseLookupBackend(_ storage: EngineStorage) -> (any LeaseLookup)? {
        guard let lookup = storage.locks.asLeaseLookup, isOneObject(storage.cache, lookup) else { return nil }
        return lookup
    }

    /// True when both are the same instance of a class.
    private static func isOneObject(_ one: any StoragePart, _ other: (any StoragePart)?) -> Bool {
        guard let identity = one.backendIdentity else { return false }
        return identity == other?.backendIdentity
    }
}
