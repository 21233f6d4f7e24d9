import IsobarCore
import IsobarEngine
import IsobarRedis
import IsobarRender
import IsobarStore

/// `isobar cache stats` (and `isobar cache`): the entries per provider and kind, in the local cache and in the shared store when
/// one is configured.
struct CacheStatsCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Counts both levels and writes them in the format asked for.
    func run() async throws -> ExitCode {
        let access = try CacheAccess(context: context, invocation: invocation)
        // Statistics only read: a cache on a read-only disk can still be looked at.
        let store = try await access.local(readOnly: true)
        let format = invocation.options.format
        do {
            context.write(statisticsReport(try await store.statistics(), location: store.path, fileBytes: store.fileSize), as: format)
        } catch {
            throw ConfigurationError(error.message)
        }
        if let shared = access.shared, let report = await sharedStatistics(shared) { context.write(report, as: format) }
        return .success
    }

    /// The shared level, or nil with a warning when the server cannot be read (the local level is shown all the same).
    func sharedStatistics(_ shared: RedisStore) async -> TextReport? {
        do {
            let level = statisticsReport(try await shared.statistics(), location: shared.location, fileBytes: nil, level: "shared")
            return TextReport(people: { "\n" + level.text(width: $0) }, lines: { level.jsonLines() })
        } catch {
            context.warn("cannot read the shared store: \(error)")
            return nil
        }
    }

    /// The `cache stats` report of one level; `level` is said in JSON lines when a shared store is configured.
    func statisticsReport(_ statistics: CacheStatistics, location: String, fileBytes: Int?, level: String? = nil) -> TextReport {
        let now = context.time.now()
        return TextReport(people: { width in
            let columns = TableColumns<TableLayouts.CacheStats, CacheGroup>([
                ColumnSpec(.provider, "Provider", left: true) { CacheCommand.providerID($0.provider) },
                ColumnSpec(.kind, "Kind", left: true) { $0.slot },
                ColumnSpec(.entries, "Entries") { String($0.count) },
                ColumnSpec(.oldest, "Oldest") { CacheCommand.age(now.timeIntervalSince($0.oldest)) },
                ColumnSpec(.newest, "Newest") { CacheCommand.age(now.timeIntervalSince($0.newest)) },
            ])
            let table = columns.table(statistics.groups, narrowing: TableLayouts.cacheStats(columns))
            let total = statistics.groups.reduce(0) { $0 + $1.count }
            let size = fileBytes.map { "\($0 / 1024) KiB on disk" } ?? "\(statistics.payloadBytes / 1024) KiB of answers"
            let heading = TextWrap.fit("\(level == "shared" ? "Shared cache" : "Cache") \(location): \(total) answer(s), \(size)", width: width)
            return heading + "\n" + (total > 0 ? table.render(width: width) : "")
        }, lines: {
            JSONLine.text("cache_stats", [
                ("path", .string(location)), ("file_bytes", .integer(fileBytes ?? 0)), ("payload_bytes", .integer(statistics.payloadBytes)),
            ] + (level.map { [("level", JSONOutput.string($0))] } ?? []) + [
                ("entries", .array(statistics.groups.map { entry in
                    .object([("provider", .string(CacheCommand.providerID(entry.provider))), ("endpoint", .string(CacheCommand.endpoint(entry.provider))), ("kind", .string(entry.slot)), ("count", .integer(entry.count)),
                             ("oldest_age_s", .number(now.timeIntervalSince(entry.oldest).rounded())),
                             ("newest_age_s", .number(now.timeIntervalSince(entry.newest).rounded()))])
                })),
            ])
        })
    }
}
