import Foundation
import IsobarCLI
import IsobarCore
import IsobarStore
import Testing

/// `archive import` over hostile and large inputs: each bad line refused by number and field, nothing kept, and a large
/// input streamed in.
@Suite struct ArchiveImportInputTests {
    /// A good step line; `replacing` swaps one member's JSON text (`"latitude":53.9` → `"latitude":1e308`).
    static func step(_ replacing: (String, String)? = nil, provider: String = "open-meteo", hour: Int = 9) -> String {
        let line = #"{"schema":1,"type":"archived_step","provider":"\#(provider)","latitude":53.9,"longitude":27.57,"#
            + #""issued_at":"2026-11-29T00:00:00+00:00","valid_at":"2026-11-29T\#(String(format: "%02d", hour)):00:00+00:00","#
            + #""lead_h":9,"period_h":1,"condition":null,"values":{"temperature":1.5},"units":{"temperature":"°C"}}"#
        guard let (old, new) = replacing else { return line }
        return line.replacingOccurrences(of: old, with: new)
    }

    static let observation = #"{"schema":1,"type":"archived_observation","observed_by":"metar","station":"UMMS","latitude":53.9,"#
        + #""longitude":27.57,"observed_at":"2026-11-29T09:00:00+00:00","condition":null,"values":{"temperature":1},"units":{"temperature":"°C"}}"#

    /// Imports `lines` into a fresh data home; the run and the home.
    static func importing(_ lines: [String], label: String) async throws -> (run: CLIRun, home: String, file: String) {
        let home = temporaryDirectory(label)
        let file = temporaryDirectory(label + "-file") + "/in.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return (await runCLI(["archive", "import", file], environment: ["XDG_DATA_HOME": home]), home, file)
    }

    static func archived(_ home: String) async throws -> ArchiveStats {
        try await UserDataStore.open(directory: home + "/isobar").archiveStats()
    }

    @Test(arguments: [
        (("\"latitude\":53.9", "\"latitude\":1e308"), "latitude"),
        (("\"longitude\":27.57", "\"longitude\":-180.5"), "longitude"),
        (("\"issued_at\":\"2026-11-29T00:00:00+00:00\"", "\"issued_at\":\"9999-11-29T00:00:00+00:00\""), "issued_at"),
        (("\"valid_at\":\"2026-11-29T09:00:00+00:00\"", "\"valid_at\":\"0001-01-01T00:00:00+00:00\""), "valid_at"),
        (("\"latitude\":53.9", "\"latitude\":53.9,\"latitude\":-53.9"), "latitude"),
        (("\"provider\":\"open-meteo\"", "\"provider\":\"open\\u0000meteo\""), "provider"),
        (("\"provider\":\"open-meteo\"", "\"provider\":\"\(String(repeating: "p", count: 129))\""), "provider"),
        (("\"condition\":null", "\"condition\":\"rain\\u001b[31m\""), "condition"),
        (("\"period_h\":1", "\"period_h\":-1"), "period_h"),
        (("\"temperature\":1.5", "\"temperature\":1e300"), "temperature"),
    ])
    func aBadLineIsRefusedByNumberAndFieldAndNothingIsImported(_ change: (String, String), field: String) async throws {
        let bad = Self.step(change)
        #expect(bad != Self.step(), "the change applies")
        let (run, home, file) = try await Self.importing([Self.step(), Self.observation, bad, Self.step(hour: 10)], label: "import-hostile")
        #expect(run.code == ExitCode.badImport.rawValue)
        let errors = run.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.first?.hasPrefix("isobar: \(file) line 3: ") == true && errors.first?.contains(field) == true, "\(errors)")
        #expect(errors.last == "isobar: nothing was imported: 1 line(s) are not archive export lines")
        let stats = try await Self.archived(home)
        #expect(stats.steps == 0 && stats.observations == 0)
    }

    @Test func aLineLongerThanOneMebibyteIsRefusedByNumberUnread() async throws {
        let long = #"{"type":"archived_step","provider":""# + String(repeating: "x", count: 1 << 20) + #""}"#
        let (run, home, file) = try await Self.importing([Self.step(), long, Self.step(hour: 10)], label: "import-long")
        #expect(run.code == ExitCode.badImport.rawValue)
        let errors = run.stderr.split(separator: "\n").map(String.init)
        #expect(errors == ["isobar: \(file) line 2: longer than 1 MiB", "isobar: nothing was imported: 1 line(s) are not archive export lines"])
        #expect(try await Self.archived(home).steps == 0)
    }

    @Test func anExportImportedAndExportedAgainIsTheSame() async throws {
        let minsk = Place(name: "Minsk", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!)
        let a = try await ArchiveImportCLITests.seeded(minsk, label: "roundtrip-a")
        let first = await runCLI(["archive", "export"], environment: ["XDG_DATA_HOME": a])
        #expect(first.code == 0 && !first.stdout.isEmpty)
        let file = temporaryDirectory("roundtrip-file") + "/a.jsonl"
        try first.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let b = temporaryDirectory("roundtrip-b")
        let imported = await runCLI(["archive", "import", file], environment: ["XDG_DATA_HOME": b])
        #expect(imported.code == 0, "\(imported.stderr)")
        let second = await runCLI(["archive", "export"], environment: ["XDG_DATA_HOME": b])
        #expect(second.code == 0 && second.stdout == first.stdout)
    }

    @Test func aLargeInputIsImportedWhole() async throws {
        let count = 200_000
        let file = temporaryDirectory("import-large-file") + "/large.jsonl"
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: file))
        // 200 places × 1,000 hours of one issue, written a place at a time.
        for place in 0..<(count / 1_000) {
            var text = ""
            for hour in 0..<1_000 {
                let valid = CivilTime.iso(Date(timeIntervalSince1970: 1_795_000_000 + Double(hour) * 3_600), utcOffsetSeconds: 0)
                text += #"{"type":"archived_step","provider":"open-meteo","latitude":\#(Double(place) / 10),"longitude":10,"#
                    + #""issued_at":"2026-11-18T07:00:00+00:00","valid_at":"\#(valid)","period_h":1,"condition":null,"values":{"temperature":\#(hour % 30)}}"#
                    + "\n"
            }
            try handle.write(contentsOf: Data(text.utf8))
        }
        try handle.close()
        let home = temporaryDirectory("import-large")
        let run = await runCLI(["archive", "import", file, "--json"], environment: ["XDG_DATA_HOME": home])
        #expect(run.code == 0, "\(run.stderr)")
        let line = try #require(try parseLines(run).first)
        #expect(try line.int("steps") == count && line.int("skipped") == 0)
        #expect(try await Self.archived(home).steps == count)
    }
}
