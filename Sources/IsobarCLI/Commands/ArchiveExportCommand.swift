import IsobarCore
import IsobarRender
import IsobarStore

/// `isobar archive export`: every archived step and observation as JSON lines, whatever `--format` says.
struct ArchiveExportCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Writes the archive, values in `--units` (else the configuration's).
    func run() async throws -> ExitCode {
        let archive = try await ArchiveAccess.open(context, invocation, for: "export")
        try await exportArchive(archive.store, units: invocation.options.units ?? archive.configuration.units)
        return .success
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
