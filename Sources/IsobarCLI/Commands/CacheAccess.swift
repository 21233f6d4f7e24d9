import IsobarCore
import IsobarRedis
import IsobarStore
import Synchronization

/// What every `cache` action starts from: the configuration and the shared store when one is configured, then the local
/// cache opened for the action.
struct CacheAccess {
    /// What the action runs with.
    let context: CommandContext
    /// The action's arguments and options.
    let invocation: Invocation
    /// The configuration in effect.
    let configuration: Configuration
    /// The shared store, when one is configured or given.
    let shared: RedisStore?

    /// Loads the configuration and finds the shared store; `--shared` is a usage error for an action that does not take it.
    init(context: CommandContext, invocation: Invocation, takesShared: Bool = false) throws {
        self.context = context
        self.invocation = invocation
        configuration = try context.loadConfiguration(invocation)
        if invocation.own(CacheOptions.self).shared && !takesShared { throw UsageError("--shared goes with cache clear only") }
        let configuration = configuration
        shared = try context.sharedStoreURL(invocation, configuration).map {
            RedisStore(url: $0, timeoutMilliseconds: max(1000, configuration.sharedStoreTimeoutMilliseconds))
        }
    }

    /// The local cache file; `readOnly` accepts one on a read-only disk (for an action that only reads). A cache that could only
    /// be made in memory is an error, not an empty cache: the command is about the file.
    func local(readOnly: Bool = false) async throws -> Store {
        guard let directory = context.cacheDirectory(invocation, configuration) else {
            throw ConfigurationError("no cache directory: set XDG_CACHE_HOME or HOME, or pass --cache-dir")
        }
        let store: Store
        let warnings = Mutex<[String]>([])
        do {
            store = try await context.openCacheFile(directory, options: Store.Options(acceptsReadOnly: readOnly),
                                                    warn: { message in warnings.withLock { $0.append(message) } })
        } catch {
            throw ConfigurationError(error.message)
        }
        guard store.path != ":memory:" else {
            throw ConfigurationError(warnings.withLock { $0.last } ?? "cannot use the cache in \(directory)")
        }
        for message in warnings.withLock({ $0 }) { context.warn(message) }
        return store
    }
}
