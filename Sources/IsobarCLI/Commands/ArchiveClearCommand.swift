import IsobarCore
import IsobarRender

/// `isobar archive clear`: removes every archived entry and the skill record learned from them (the cities and home stay).
struct ArchiveClearCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Clears the archive and says how much went.
    func run() async throws -> ExitCode {
        let archive = try await ArchiveAccess.open(context, invocation, for: "clear")
        let removed = try await archive.store.clearArchive()
        let path = archive.store.path
        context.write(TextReport(people: { _ in "Removed \(removed) archived forecast step(s) and observation(s) from \(path).\n" },
                                 lines: { JSONLine.text("archive_cleared", [("removed", .integer(removed)), ("path", .string(path))]) }),
                      as: invocation.options.format)
        return .success
    }
}
