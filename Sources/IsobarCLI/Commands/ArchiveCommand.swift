import FoundationEssentials
import IsobarCore
import IsobarRender
import IsobarStore

/// `isobar archive stats|prune|clear|export`: the forecast archive in the user's data file.
struct ArchiveCommand: CommandWithActions {
    typealias Own = ArchiveOptions
    static let spec = Commands.archive
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// `export` writes JSON lines whatever `--format` says; the other actions follow it.
    static func writes(_ invocation: Invocation) -> OutputText {
        invocation.positionals.first == "export" ? .jsonLines : invocation.options.format.text
    }

    /// `stats` when no action is named.
    static let defaultAction = "stats"

    /// Its actions, each a type of its own.
    static let subcommands: [SubcommandSpec<ArchiveCommand>] = [
        SubcommandSpec("stats", summary: "Count the archived forecasts and observations", runs: ArchiveStatsCommand.self),
        SubcommandSpec("prune", summary: "Remove the archived entries older than --older-than (default archive_days)",
                       runs: ArchivePruneCommand.self),
        SubcommandSpec("clear", summary: "Remove every archived entry and the skill record learned from them",
                       runs: ArchiveClearCommand.self),
        SubcommandSpec("export", summary: "Write the archive as JSON lines", runs: ArchiveExportCommand.self),
        SubcommandSpec("import", arguments: ["FILE"], summary: "Add another archive's export (FILE, or - for stdin), skipping what is already archived",
                       runs: ArchiveImportCommand.self),
    ]

    /// Runs the command and returns its exit code.
    func run() async throws -> ExitCode { try await runAction() }
}

extension CommandContext {
    /// Archives the forecast steps of answers fetched live in this run, then drops what is older than `archive_days`.
    /// The archive is a by-product: a failure is a warning, never the command's failure.
    func archiveLive(_ reports: [WeatherReport], _ configuration: Configuration) async {
        let live = reports.filter { $0.source == .live && $0.freshness == .fresh && !$0.hourly.isEmpty }
        guard configuration.archiveDays > 0, !live.isEmpty, let directory = userDataDirectory() else { return }
        do {
            let store = try await UserDataStore.open(directory: directory)
            for report in live { try await store.archive(report) }
            try await store.pruneArchive(before: time.now().addingTimeInterval(-Double(configuration.archiveDays) * 86_400))
        } catch {
            warn("the forecast archive was not updated: \(error.message)")
        }
    }
}
