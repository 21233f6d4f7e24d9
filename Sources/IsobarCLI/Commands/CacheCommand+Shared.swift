import IsobarCore
import IsobarEngine
import IsobarRedis
import IsobarRender

extension CacheCommand {
    /// `isobar cache clear --shared`: deletes Isobar's answers on the shared store (by `SCAN`, never `FLUSHDB`).
    func clearShared(_ shared: RedisStore?, jsonl: Bool) async throws -> ExitCode {
        guard let shared else {
            throw UsageError("--shared needs a shared store: set shared_store in the configuration or ISOBAR_REDIS_URL, or pass --shared-store")
        }
        let removed: Int
        do {
            removed = try await shared.clear()
        } catch {
            throw ConfigurationError("cannot clear the shared store: \(error.message)")
        }
        context.output.write(jsonl ? JSONLine.text("cache_cleared", [("removed", .integer(removed)), ("path", .string(shared.location)), ("level", .string("shared"))])
                           : "Removed \(removed) cached answer(s) from the shared store \(shared.location).\n")
        return .success
    }

    /// The shared level of `cache stats`, or a warning when the server cannot be read (the local level is shown all the same).
    func sharedStatistics(_ shared: RedisStore, jsonl: Bool) async -> String {
        do {
            let statistics = try await shared.statistics()
            return try (jsonl ? "" : "\n") + statisticsText(statistics, location: shared.location, fileBytes: nil, level: "shared", jsonl: jsonl)
        } catch {
            context.warn("cannot read the shared store: \(error)")
            return ""
        }
    }
}
