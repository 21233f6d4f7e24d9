import Foundation
import IsobarCLI
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarStore
import Testing

@Suite struct ArchiveImportCLITests {
    /// A data home whose archive holds three days of two providers' forecasts and the observed truth at `place`.
    static func seeded(_ place: Place, label: String) async throws -> String {
        let home = temporaryDirectory(label)
        let store = try await UserDataStore.open(directory: home + "/isobar")
        let start = Date(timeIntervalSince1970: 1_795_856_400 - 3 * 86_400)
        for day in 0..<3 {
            let issued = start.addingTimeInterval(Double(day) * 86_400)
            for (provider, offset) in [("open-meteo", 0.4), ("met-norway", -0.6)] {
                let steps = (0..<24).map { hour -> WeatherSample in
                    var step = WeatherSample(time: issued.addingTimeInterval(Double(hour) * 3_600), periodHours: 1)
                    step.temperatureC = Double(hour % 7) + offset
                    step.precipitationProbabilityPercent = 30
                    return step
                }
                try await store.archive(WeatherReport(providerID: provider, place: place, fetchedAt: issued, hourly: steps))
            }
            for hour in 0..<24 {
                var observed = WeatherSample(time: issued.addingTimeInterval(Double(hour) * 3_600), periodHours: 1)
                observed.temperatureC = Double(hour % 7)
                observed.condition = hour % 5 == 0 ? .rain : .cloudy
                try await store.archiveObservation(observed, source: "metar", station: "XXXX", place: place)
            }
        }
        return home
    }

    static func ledger(_ home: String) async throws -> SkillLedger {
        let store = try await UserDataStore.open(directory: home + "/isobar")
        try await store.foldSkill()
        return try await store.skillLedger()
    }

    @Test func anExportImportedIntoAnotherArchiveGivesTheRecordOfOneHoldingBoth() async throws {
        let minsk = Place(name: "Minsk", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!)
        let paris = Place(name: "Paris", coordinate: Coordinate(latitude: 48.8566, longitude: 2.3522)!)
        let a = try await Self.seeded(minsk, label: "import-a")
        let b = try await Self.seeded(paris, label: "import-b")
        let both = try await Self.seeded(minsk, label: "import-both")
        let bothStore = try await UserDataStore.open(directory: both + "/isobar")
        let bStore = try await UserDataStore.open(directory: b + "/isobar")
        try await bothStore.importArchive(steps: try await bStore.archivedSteps(), observations: try await bStore.archivedObservations())
        _ = try await Self.ledger(b)
        let export = await runCLI(["archive", "export"], environment: ["XDG_DATA_HOME": a])
        #expect(export.code == 0)
        let file = temporaryDirectory("import-file") + "/a.jsonl"
        try export.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let run = await runCLI(["archive", "import", file, "--json"], environment: ["XDG_DATA_HOME": b])
        #expect(run.code == 0, "\(run.stderr)")
        let line = try #require(try parseLines(run).first)
        #expect(try line.string("type") == "archive_imported" && line.int("steps") == 144 && line.int("observations") == 72)
        #expect(try line.int("skipped") == 0 && line.int("folded") == 144)
        #expect(try await Self.ledger(b) == (try await Self.ledger(both)))
        // A second import finds everything already there.
        let again = await runCLI(["archive", "import", file], environment: ["XDG_DATA_HOME": b])
        #expect(again.code == 0 && again.stdout.contains("Imported 0 forecast step(s) and 0 observation(s)") && again.stdout.contains("(216 already there)"))
        // And verify reads the merged record.
        let verify = try parseLines(await runCLI(["verify", "--json"], environment: ["XDG_DATA_HOME": b]))
        #expect(try verify.filter { try $0.string("field") == "temperature" }.map { try $0.int("pairs") }.reduce(0, +) == 288)
    }

    @Test func badLinesAreNamedByNumberAndNothingIsImported() async throws {
        let home = temporaryDirectory("import-bad")
        let file = temporaryDirectory("import-bad-file") + "/bad.jsonl"
        let good = #"{"schema":1,"type":"archived_observation","observed_by":"metar","station":"UMMS","latitude":53.9,"longitude":27.57,"observed_at":"2026-11-29T09:00:00+00:00","condition":null,"values":{"temperature":1},"units":{"temperature":"°C"}}"#
        let imperial = #"{"schema":1,"type":"archived_observation","observed_by":"metar","station":"UMMS","latitude":53.9,"longitude":27.57,"observed_at":"2026-11-29T09:00:00+00:00","condition":null,"values":{"temperature":1},"units":{"temperature":"°F"}}"#
        try [good, "", "{not json", imperial, #"{"type":"archived_step"}"#].joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let run = await runCLI(["archive", "import", file], environment: ["XDG_DATA_HOME": home])
        #expect(run.code == ExitCode.badImport.rawValue)
        let errors = run.stderr.split(separator: "\n")
        #expect(errors.count == 4)
        #expect(errors[0].hasPrefix("isobar: \(file) line 3: not an archive export line"))
        #expect(errors[1] == "isobar: \(file) line 4: temperature is in °F; only metric exports can be read")
        #expect(errors[2].hasPrefix("isobar: \(file) line 5: "))
        #expect(errors[3] == "isobar: nothing was imported: 3 line(s) are not archive export lines")
        let store = try await UserDataStore.open(directory: home + "/isobar")
        #expect(try await store.archiveStats().observations == 0)
        // A missing file, a folder, and no file at all.
        #expect(await runCLI(["archive", "import", home + "/missing.jsonl"], environment: ["XDG_DATA_HOME": home]).code == ExitCode.noInput.rawValue)
        #expect(await runCLI(["archive", "import", home], environment: ["XDG_DATA_HOME": home]).code == ExitCode.noInput.rawValue)
        expectOneLineError(await runCLI(["archive", "import"], environment: ["XDG_DATA_HOME": home]), code: .usage, containing: "archive import needs a FILE")
        expectOneLineError(await runCLI(["archive", "stats", file], environment: ["XDG_DATA_HOME": home]), code: .usage, containing: "takes no file")
    }
}
