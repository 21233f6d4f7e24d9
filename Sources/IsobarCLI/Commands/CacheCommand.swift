import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRedis
import IsobarRender
import IsobarStore
import Synchronization

/// `isobar cache stats|clear|prune`.
struct CacheCommand: CommandWithActions {
    typealias Own = CacheOptions
    static let spec = Commands.cache
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// `stats` when no action is named.
    static let defaultAction = "stats"

    /// Its actions.
    static let subcommands: [SubcommandSpec<CacheCommand>] = [
        SubcommandSpec("stats", summary: "Count the cached entries per provider and kind, locally and in the shared store") { try await $0.run("stats") },
        SubcommandSpec("clear", summary: "Delete every cached answer (with --shared: every answer in the shared store)") { try await $0.run("clear") },
        SubcommandSpec("prune", summary: "Delete old answers and the rate-limit records no window needs") { try await $0.run("prune") },
    ]

    /// Runs the command and returns its exit code.
    func run() async throws -> ExitCode { try await runAction() }

    /// Runs `action`, after opening the cache it works on.
    private func run(_ action: String) async throws -> ExitCode {
        let configuration = try context.loadConfiguration(invocation)
        if own.shared && action != "clear" { throw UsageError("--shared goes with cache clear only") }
        let shared = try context.sharedStoreURL(invocation, configuration).map { RedisStore(url: $0, timeoutMilliseconds: max(1000, configuration.sharedStoreTimeoutMilliseconds)) }
        if own.shared { return try await clearShared(shared, format: invocation.options.format) }
        guard let directory = context.cacheDirectory(invocation, configuration) else {
            throw ConfigurationError("no cache directory: set XDG_CACHE_HOME or HOME, or pass --cache-dir")
        }
        let store: Store
        let warnings = Mutex<[String]>([])
        do {
            // Statistics only read: a cache on a read-only disk can still be looked at.
            store = try await Store.open(directory: directory, options: Store.Options(acceptsReadOnly: action == "stats"),
                                         warn: { message in warnings.withLock { $0.append(message) } })
        } catch {
            throw ConfigurationError(error.message)
        }
        // The command is about the file: a cache that could only be made in memory is an error, not an empty cache.
        guard store.path != ":memory:" else {
            throw ConfigurationError(warnings.withLock { $0.last } ?? "cannot use the cache in \(directory)")
        }
        for message in warnings.withLock({ $0 }) { context.warn(message) }
        let format = invocation.options.format
        do {
            switch action {
            case "clear":
                let removed = try await store.clear()
                context.write(TextReport(people: { _ in "Removed \(removed) cached answer(s) from \(store.path).\n" },
                                         lines: { JSONLine.text("cache_cleared", [("removed", .integer(removed)), ("path", .string(store.path))]) }), as: format)
            case "prune":
                let olderThan = own.olderThanSeconds
                let now = context.time.now()
                let removed = try await store.prune(fetchedBefore: now.addingTimeInterval(-olderThan),
                                                   ledgerBefore: now.addingTimeInterval(-31 * 86_400))
                context.write(TextReport(people: { _ in "Removed \(removed) cached answer(s) fetched more than \(Int(olderThan)) s ago.\n" },
                                         lines: { JSONLine.text("cache_pruned", [("removed", .integer(removed)), ("older_than_s", .number(olderThan))]) }), as: format)
            default:
                context.write(statisticsReport(try await store.statistics(), location: store.path, fileBytes: store.fileSize), as: format)
                if let shared, let report = await sharedStatistics(shared) { context.write(report, as: format) }
            }
        } catch {
            throw ConfigurationError(error.message)
        }
        return .success
    }

    /// The `cache stats` report of one level; `level` is said in JSON lines when a shared store is configured.
    func statisticsReport(_ statistics: CacheStatistics, location: String, fileBytes: Int?, level: String? = nil) -> TextReport {
        let now = context.time.now()
        return TextReport(people: { width in
            let columns = TableColumns<TableLayouts.CacheStats, CacheGroup>([
                ColumnSpec(.provider, "Provider", left: true) { Self.providerID($0.provider) },
                ColumnSpec(.kind, "Kind", left: true) { $0.slot },
                ColumnSpec(.entries, "Entries") { String($0.count) },
                ColumnSpec(.oldest, "Oldest") { Self.age(now.timeIntervalSince($0.oldest)) },
                ColumnSpec(.newest, "Newest") { Self.age(now.timeIntervalSince($0.newest)) },
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
                    .object([("provider", .string(Self.providerID(entry.provider))), ("endpoint", .string(Self.endpoint(entry.provider))), ("kind", .string(entry.slot)), ("count", .integer(entry.count)),
                             ("oldest_age_s", .number(now.timeIntervalSince(entry.oldest).rounded())),
                             ("newest_age_s", .number(now.timeIntervalSince(entry.newest).rounded()))])
                })),
            ])
        })
    }

    /// The provider id of a storage key (`open-meteo@3f2a…` → `open-meteo`).
    static func providerID(_ storageKey: String) -> String { String(storageKey.prefix { $0 != "@" }) }

    /// The endpoint fingerprint of a storage key, or nil when it has none.
    static func endpoint(_ storageKey: String) -> String? {
        storageKey.firstIndex(of: "@").map { String(storageKey[storageKey.index(after: $0)...]) }
    }

    /// `42 s`, `5 min`, `3 h`, `2 d`.
    static func age(_ seconds: Double) -> String { TableRenderer.ageText(seconds) }
}
