import IsobarCore
import IsobarEngine
import IsobarRedis
import IsobarRender

extension CacheCommand {
    /// `isobar cache clear --shared`: deletes Isobar's answers on the shared store (by `SCAN`, never `FLUSHDB`).
    func clearShared(_ shared: RedisStore?, format: OutputFormat) async throws -> ExitCode {
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
                                 lines: { JSONLine.text("cache_cleared", [("removed", .integer(removed)), ("path", .string(shared.location)), ("level", .string("shared"))]) }), as: format)
        return .success
    }

    /// The shared level of `cache stats`, or nil with a warning when the server cannot be read (the local level is shown all the same).
    func sharedStatistics(_ shared: RedisStore) async -> TextReport? {
        do {
            let level = statisticsReport(try await shared.statistics(), location: shared.location, fileBytes: nil, level: "shared")
            return TextReport(people: { "\n" + level.text(width: $0) }, lines: { level.jsonLines() })
        } catch {
            context.warn("cannot read the shared store: \(error)")
            return nil
        }
    }
}
