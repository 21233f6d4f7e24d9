import IsobarCore
import IsobarRender

/// `isobar cache prune [--older-than DURATION]`: deletes the answers fetched longer ago, and the rate-limit records no window needs.
struct CachePruneCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Seconds after which a rate-limit record is no longer needed by any window.
    static let ledgerSeconds = 31.0 * 86_400

    /// Prunes the local cache and says how many answers went.
    func run() async throws -> ExitCode {
        let access = try CacheAccess(context: context, invocation: invocation)
        let store = try await access.local()
        let olderThan = invocation.own(CacheOptions.self).olderThanSeconds
        let now = context.time.now()
        let removed: Int
        do {
            removed = try await store.prune(fetchedBefore: now.addingTimeInterval(-olderThan), ledgerBefore: now.addingTimeInterval(-Self.ledgerSeconds))
        } catch {
            throw ConfigurationError(error.message)
        }
        context.write(TextReport(people: { _ in "Removed \(removed) cached answer(s) fetched more than \(Int(olderThan)) s ago.\n" },
                                 lines: { JSONLine.text("cache_pruned", [("removed", .integer(removed)), ("older_than_s", .number(olderThan))]) }),
                      as: invocation.options.format)
        return .success
    }
}
