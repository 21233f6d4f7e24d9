import FoundationEssentials
import IsobarCore
import IsobarRender
import IsobarStore

/// `isobar archive import FILE|-`: another archive's export added to the archive and folded into the skill record.
struct ArchiveImportCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// How far past the command's clock an imported time may lie: a year (366 days).
    static let importFutureSeconds = 366.0 * 86_400

    /// The steps and observations of an archive export (JSON lines, metric) added to the
    /// archive, those already there skipped, and folded into the skill record. The input is streamed (a line at a time,
    /// records added in bounded batches) inside one transaction, so it is all or nothing: any bad line (see
    /// `ArchiveLineRules`, or longer than 1 MiB) is named with its line number and nothing is imported (exit code 6); an
    /// unreadable file is exit code 66.
    func run() async throws -> ExitCode {
        let store = try await ArchiveAccess.open(context, invocation, for: "import", takesFile: true).store
        let path = invocation.positionals[1]
        let name = path == "-" ? "stdin" : path
        let rules = ArchiveLineRules(latest: context.time.now().addingTimeInterval(Self.importFutureSeconds))
        guard let input = ArchiveImportInput.open(path, rules: rules) else {
            context.errors.write("isobar: cannot read \(name)\n")
            return .noInput
        }
        let counted = try await store.importArchive(batches: { input.next() })
        let tally = input.tally
        guard let count = counted else {
            for error in tally.errors { context.errors.write("isobar: \(name) \(error)\n") }
            if tally.bad > tally.errors.count { context.errors.write("isobar: … and \(tally.bad - tally.errors.count) more bad line(s)\n") }
            if tally.bad == 0 {
                context.errors.write("isobar: cannot read \(name) to its end; nothing was imported\n")
                return .noInput
            }
            context.errors.write("isobar: nothing was imported: \(tally.bad) line(s) are not archive export lines\n")
            return .badImport
        }
        let settled = try await store.foldSkill(families: await context.configuredFamilies(invocation))
        let skipped = tally.records - count.steps - count.observations
        context.write(TextReport(people: { _ in "Imported \(count.steps) forecast step(s) and \(count.observations) observation(s) into \(store.path) "
                             + "(\(skipped) already there); \(settled) step(s) folded into the skill record.\n" },
                                 lines: { JSONLine.text("archive_imported", [("steps", .integer(count.steps)), ("observations", .integer(count.observations)),
                                                        ("skipped", .integer(skipped)), ("folded", .integer(settled)), ("path", .string(store.path))]) }), as: invocation.options.format)
        return .success
    }
}
