import IsobarCore
import IsobarRedis
import IsobarRender

/// `isobar cache clear [--shared]`: deletes every cached answer, of the local cache or (with `--shared`) of the shared store.
struct CacheClearCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Clears the level asked for and says how many answers went.
    func run() async throws -> ExitCode {
        let access = try CacheAccess(context: context, invocation: invocation, takesShared: true)
        if invocation.own(CacheOptions.self).shared { return try await clearShared(access.shared) }
        let store = try await access.local()
        let removed: Int
        do {
            removed = try await store.clear()
        } catch {
            throw ConfigurationError(error.message)
        }
        context.write(TextReport(people: { _ in "Removed \(removed) cached answer(s) from \(store.path).\n" },
                                 lines: { JSONLine.text("cache_cleared", [("removed", .integer(removed)), ("path", .string(store.path))]) }),
                      as: invocation.options.format)
        return .success
    }

    /// `--shared`: deletes Isobar's answers on the shared store (by `SCAN`, never `FLUSHDB`).
    private func clearShared(_ shared: RedisStore?) async throws -> ExitCode {
        guard let shared else {
            throw UsageError("--shared needs a shared store: set shared_store in the configuration or ISOBAR_REDIS_URL, or pass --shared-store")
        }
        let removed: Int
        do {
            removed = try await shared.clear()
        } catch {
            throw ConfigurationError("cannot clear the shared store: \(error.message)")
        }
        context.write(TextReport(people: { _ in "Removed \(removed) cached answer(s) from the shared store \(shared.location).\n" },
                                 lines: { JSONLine.text("cache_cleared", [("removed", .integer(removed)), ("path", .string(shared.location)), ("level", .string("shared"))]) }),
                      as: invocation.options.format)
        return .success
    }
}
