import IsobarCore
import IsobarRender
import IsobarStore

/// `isobar archive stats` (and `isobar archive`): how many forecast steps and observations are archived, from which providers,
/// for how many places, issued when, and for how long they are kept.
struct ArchiveStatsCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Counts the archive and writes it in the format asked for.
    func run() async throws -> ExitCode {
        let archive = try await ArchiveAccess.open(context, invocation, for: "stats")
        let stats = try await archive.store.archiveStats()
        let (path, days) = (archive.store.path, archive.configuration.archiveDays)
        context.write(TextReport(people: { _ in archiveStatsText(stats, path: path, days: days) },
                                 lines: { archiveStatsLine(stats, path: path, days: days) }), as: invocation.options.format)
        return .success
    }

    private func archiveStatsLine(_ stats: ArchiveStats, path: String, days: Int) -> String {
        JSONLine.text("archive_stats", [
            ("path", .string(path)), ("steps", .integer(stats.steps)), ("observations", .integer(stats.observations)),
            ("providers", .array(stats.providers.map(JSONOutput.string))), ("places", .integer(stats.places)),
            ("first_issued_at", stats.issued.map { .string(CivilTime.iso($0.lowerBound, utcOffsetSeconds: 0)) } ?? .null),
            ("last_issued_at", stats.issued.map { .string(CivilTime.iso($0.upperBound, utcOffsetSeconds: 0)) } ?? .null),
            ("archive_days", .integer(days)),
        ])
    }

    private func archiveStatsText(_ stats: ArchiveStats, path: String, days: Int) -> String {
        var text = "Forecast archive in \(path)\n"
        let providers = stats.providers.isEmpty ? "" : " (\(stats.providers.joined(separator: ", ")))"
        text += "  \(stats.steps) forecast step(s) from \(stats.providers.count) provider(s)\(providers) for \(stats.places) place(s)\n"
        text += "  \(stats.observations) observation(s)\n"
        if let issued = stats.issued {
            text += "  issued \(CivilTime.iso(issued.lowerBound, utcOffsetSeconds: 0)) … \(CivilTime.iso(issued.upperBound, utcOffsetSeconds: 0))\n"
        }
        text += days == 0 ? "  archiving is off (archive_days is 0)\n" : "  kept for \(days) day(s) (archive_days)\n"
        return text
    }
}
