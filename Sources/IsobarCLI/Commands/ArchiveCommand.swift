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

    /// Its actions.
    static let subcommands: [SubcommandSpec<ArchiveCommand>] = [
        SubcommandSpec("stats", summary: "Count the archived forecasts and observations") { try await $0.run("stats") },
        SubcommandSpec("prune", summary: "Remove the archived entries older than --older-than (default archive_days)") { try await $0.run("prune") },
        SubcommandSpec("clear", summary: "Remove every archived entry and the skill record learned from them") { try await $0.run("clear") },
        SubcommandSpec("export", summary: "Write the archive as JSON lines") { try await $0.run("export") },
        SubcommandSpec("import", arguments: ["FILE"], summary: "Add another archive's export (FILE, or - for stdin), skipping what is already archived") {
            try await $0.run("import")
        },
    ]

    /// Runs the command and returns its exit code.
    func run() async throws -> ExitCode { try await runAction() }

    /// Runs `action` on the archive in the user's data file.
    private func run(_ action: String) async throws -> ExitCode {
        let configuration = try context.loadConfiguration(invocation)
        guard let directory = context.userDataDirectory() else {
            throw ConfigurationError("no folder for the forecast archive: set XDG_DATA_HOME or HOME")
        }
        if action != "import", invocation.positionals.count > 1 { throw UsageError("archive \(action) takes no file; only import does") }
        let store = try await UserDataStore.open(directory: directory)
        let format = invocation.options.format
        switch action {
        case "import":
            return try await importArchive(invocation, into: store, format: format)
        case "prune":
            let seconds = own.olderThanSeconds ?? Double(configuration.archiveDays) * 86_400
            let removed = try await store.pruneArchive(before: context.time.now().addingTimeInterval(-seconds))
            context.write(TextReport(people: { _ in "Removed \(removed) archived forecast step(s) and observation(s) older than \(CacheCommand.age(seconds)).\n" },
                                     lines: { JSONLine.text("archive_pruned", [("removed", .integer(removed)), ("older_than_s", .number(seconds))]) }), as: format)
        case "clear":
            let removed = try await store.clearArchive()
            context.write(TextReport(people: { _ in "Removed \(removed) archived forecast step(s) and observation(s) from \(store.path).\n" },
                                     lines: { JSONLine.text("archive_cleared", [("removed", .integer(removed)), ("path", .string(store.path))]) }), as: format)
        case "export":
            try await exportArchive(store, units: invocation.options.units ?? configuration.units)
        default:
            let stats = try await store.archiveStats()
            context.write(TextReport(people: { _ in archiveStatsText(stats, path: store.path, days: configuration.archiveDays) },
                                     lines: { archiveStatsLine(stats, path: store.path, days: configuration.archiveDays) }), as: format)
        }
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

    /// Every archived step and observation as JSON lines, values in `units`.
    private func exportArchive(_ store: UserDataStore, units: UnitSystem) async throws {
        let unitsJSON = JSONLinesRenderer.units(units)
        func values(_ values: [String: Double]) -> JSONOutput {
            .object(Quantity.allCases.compactMap { quantity in
                values[quantity.rawValue].map { (quantity.rawValue, .number(units.convert($0, quantity.dimension))) }
            })
        }
        for step in try await store.archivedSteps() {
            context.output.write(JSONLine.text("archived_step", [
                ("provider", .string(step.provider)), ("latitude", .number(step.latitude)), ("longitude", .number(step.longitude)),
                ("issued_at", .string(CivilTime.iso(step.issuedAt, utcOffsetSeconds: 0))),
                ("valid_at", .string(CivilTime.iso(step.validAt, utcOffsetSeconds: 0))),
                ("lead_h", .number(step.leadHours)), ("period_h", .number(step.periodHours)),
                ("condition", step.condition.map(JSONOutput.string) ?? .null), ("values", values(step.values)), ("units", unitsJSON),
            ]))
        }
        for observation in try await store.archivedObservations() {
            context.output.write(JSONLine.text("archived_observation", [
                ("observed_by", .string(observation.source)), ("station", .string(observation.station)),
                ("latitude", .number(observation.latitude)), ("longitude", .number(observation.longitude)),
                ("observed_at", .string(CivilTime.iso(observation.observedAt, utcOffsetSeconds: 0))),
                ("condition", observation.condition.map(JSONOutput.string) ?? .null), ("values", values(observation.values)),
                ("units", unitsJSON),
            ]))
        }
    }
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
