import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRedis
import IsobarRender
import IsobarStore

/// `isobar providers reset [ID]`: clears the cooldown and closes the breaker of one provider, or of every provider.
struct ProvidersResetCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Runs the command and returns its exit code.
    func run(id: String?) async throws -> ExitCode {
        if invocation.options.demo && (invocation.options.configFile != nil) { throw UsageError("--demo and --config cannot be used together") }
        let configuration = try context.loadConfiguration(invocation)
        let bindings = try await context.registry.bindings(for: configuration, environment: context.environment, time: context.time, live: { NoNetworkTransport() })
        var targets = bindings.filter { $0.policy != nil }
        if let id {
            // Any id output prints: a model's (`open-meteo/ecmwf_ifs025`) resets the provider that asks for it.
            let ids = bindings.map(\.provider.id) + bindings.flatMap { $0.provider.sources.map(\.id) }.filter { !bindings.map(\.provider.id).contains($0) }
            guard let owner = bindings.first(where: { $0.provider.id == id || $0.provider.sources.contains { $0.id == id } })?.provider.id else {
                let suggestion = Spelling.closest(to: id, in: ids).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError("unknown provider '\(id)'\(suggestion); configured providers are \(ids.joined(separator: ", "))")
            }
            targets = targets.filter { $0.provider.id == owner }
        }
        guard let directory = context.cacheDirectory(invocation, configuration) else {
            throw ConfigurationError("no cache directory: set XDG_CACHE_HOME or HOME, or pass --cache-dir")
        }
        let store: Store
        do {
            store = try await context.openCacheFile(directory, warn: context.warn)
        } catch {
            throw ConfigurationError(error.message)
        }
        guard store.path != ":memory:" else { throw ConfigurationError("cannot use the cache in \(directory)") }
        let shared = try context.sharedStoreURL(invocation, configuration).map { RedisStore(url: $0, timeoutMilliseconds: max(1000, configuration.sharedStoreTimeoutMilliseconds)) }
        do throws(StorageError) {
            for binding in targets {
                let stores: [any CooldownStore & BreakerStore] = [store] + (shared.map { [$0] } ?? [])
                for health in stores {
                    try await health.clearCooldown(provider: binding.storageKey)
                    try await health.resetBreaker(provider: binding.storageKey)
                }
            }
        } catch {
            throw ConfigurationError(error.message)
        }
        let names = targets.map(\.provider.id)
        context.write(TextReport(people: { _ in
            names.isEmpty ? "No provider keeps a cooldown or breaker (replays only); nothing to reset.\n"
                : "Cleared the cooldown and breaker of \(names.joined(separator: ", ")).\n"
        }, lines: {
            names.map { JSONLine.text("provider_reset", [("provider", .string($0))]) }.joined()
        }), as: invocation.options.format)
        return .success
    }
}
