import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRedis
import IsobarStore
#if canImport(Glibc)
import Glibc
#endif

/// The shared store of one command, and what it needs to stand in for it when it is away.
struct SharedStoreSetup: Sendable {
    /// The server.
    var store: RedisStore
    /// Whether it answers, and the one warning when it does not.
    var state: SharedStoreState
    /// How many machines share the limits (each takes its share while the server is away).
    var expectedMachines: Int

    /// Waits for the local copies of shared answers still being written; called before the command ends.
    func finish() async {
        await state.finish()
    }
}

extension CommandContext {
    /// The shared store's URL: `--shared-store`, else `$ISOBAR_REDIS_URL`, else the configuration's `shared_store`; nil for none.
    func sharedStoreURL(_ parsed: Invocation, _ configuration: Configuration) throws(ConfigurationError) -> RedisURL? {
        let given: (String, String)?
        if let flag = parsed.options.sharedStore {
            given = (flag, "--shared-store")
        } else if let variable = environment["ISOBAR_REDIS_URL"], !variable.isEmpty {
            given = (variable, "ISOBAR_REDIS_URL")
        } else {
            given = configuration.sharedStore.map { ($0, "shared_store") }
        }
        guard let (text, source) = given else { return nil }
        let url: RedisURL
        do {
            url = try RedisURL(parsing: text)
        } catch {
            throw ConfigurationError("\(source): \(error.message)")
        }
        if source == "shared_store", url.password != nil, let file = configuration.file {
            var info = stat()
            if stat(file, &info) == 0, info.st_mode & 0o077 != 0 {
                warn("\(file) holds the shared store's password and is readable by others; run chmod 600 \(file)")
            }
        }
        return url
    }

    /// The shared store of a weather command, when one is configured; API keys become hashes in its key names.
    func openSharedStore(_ parsed: Invocation, _ configuration: Configuration,
                         bindings: [ProviderBinding]) throws(ConfigurationError) -> SharedStoreSetup? {
        guard let url = try sharedStoreURL(parsed, configuration) else { return nil }
        var scopes: [String: String] = [:]
        for binding in bindings {
            guard let entry = configuration.providers.first(where: { $0.id == binding.provider.id }),
                  let key = registry.key(entry, environment) else { continue }
            scopes[binding.storageKey] = RedisStore.scope(apiKey: key)
        }
        let policies = Dictionary(bindings.compactMap { binding in binding.policy.map { (binding.storageKey, $0) } }) { first, _ in first }
        let store = RedisStore(url: url, timeoutMilliseconds: configuration.sharedStoreTimeoutMilliseconds, keyScopes: scopes,
                               retention: { key in
            guard let policy = policies[key.provider] else { return 7 * 86_400 }
            return Self.lifetime(policy, key.slot) + policy.maxStaleSeconds
        })
        let machines = configuration.expectedMachines
        let fallback = machines > 1 ? "using the local cache, and 1/\(machines) of each rate limit, until it answers again"
            : "using the local cache and rate limits until it answers again"
        let warn = warn
        return SharedStoreSetup(store: store, state: SharedStoreState(fallback: fallback, warn: { warn($0) }), expectedMachines: machines)
    }

    /// The engine's storage: the local store, with the shared one in front of it when configured; a local answer is served
    /// without asking the shared store while the cache step would call it fresh (`--max-age` included).
    func engineStorage(_ local: Store?, shared: SharedStoreSetup?, bindings: [ProviderBinding],
                       maxAgeSeconds: Double?) -> EngineStorage? {
        guard let shared else { return local.map { EngineStorage($0) } }
        return SharedStorage.compose(local: local.map { EngineStorage($0) } ?? EngineStorage(MemoryStorage()), shared: shared.store,
                                     state: shared.state, expectedMachines: shared.expectedMachines,
                                     isFresh: Self.localIsFresh(bindings: bindings, maxAgeSeconds: maxAgeSeconds, time: time))
    }

    /// Whether a local answer is fresh enough to skip the shared store: the providers' `FreshnessRule`s, as the cache step
    /// applies them; an answer of a provider with no policy never is.
    static func localIsFresh(bindings: [ProviderBinding], maxAgeSeconds: Double?,
                             time: any TimeSource) -> @Sendable (CacheKey, CacheEntry) -> Bool {
        let rules = Dictionary(bindings.compactMap { binding in
            binding.policy.map { policy in
                (binding.storageKey, FreshnessRule(policy: policy, honoursHTTPExpiry: binding.provider.capabilities.honoursHTTPExpiry,
                                                   maxAgeSeconds: maxAgeSeconds))
            }
        }) { first, _ in first }
        return { key, entry in rules[key.provider]?.isFresh(entry, slot: key.slot, now: time.now()) ?? false }
    }

    /// The configured time to live of a slot.
    private static func lifetime(_ policy: ProviderPolicy, _ slot: CacheSlot) -> Double {
        slot == .current ? policy.currentTTLSeconds : policy.forecastTTLSeconds
    }
}
