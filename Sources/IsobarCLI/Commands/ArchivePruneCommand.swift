import IsobarCore
import IsobarRender

/// `isobar archive prune [--older-than DURATION]`: removes the archived entries older than that (default `archive_days`); what
/// was learned from them stays, fading.
struct ArchivePruneCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Prunes the archive and says how much went.
    func run() async throws -> ExitCode {
        let archive = try await ArchiveAccess.open(context, invocation, for: "prune")
        let seconds = invocation.own(ArchiveOptions.self).olderThanSeconds ?? Double(archive.configuration.archiveDays) * 86_400
        let removed = try await archive.store.pruneArchive(before: context.time.now().addingTimeInterval(-seconds))
        context.write(TextReport(people: { _ in "Removed \(removed) archived forecast step(s) and observation(s) older than \(CacheCommand.age(seconds)).\n" },
                                 lines: { JSONLine.text("archive_pruned", [("removed", .integer(removed)), ("older_than_s", .number(seconds))]) }),
                      as: invocation.options.format)
        return .success
    }
}
