import Foundation
import IsobarCLI
import IsobarCore
import Testing

/// A plug-in may send every quantity of the table, dew point and UV index included, and they reach the comparison.
@Suite(.serialized) struct ExecQuantityFieldsTests {
    /// This machine's PATH, for sh.
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"

    /// A `fetch` plug-in whose current conditions are `current` (JSON members).
    func program(current: String, in directory: String) -> String {
        let file = directory + "/dew.sh"
        let text = """
        #!/bin/sh
        input=$(cat)
        case "$input" in
        *'"call":"describe"'*) echo '{"protocol":1,"ok":true,"describe":{"id":"dew","name":"Dew","kinds":["current"],"coverage":"global","mode":"fetch"}}' ;;
        *) echo '{"protocol":1,"ok":true,"report":{"units":"si","current":{"time":"2026-11-28T09:00:00Z",\(current)}}}' ;;
        esac
        """
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
        return file
    }

    /// `isobar compare Minsk` as JSON lines with the one plug-in.
    func compare(current: String) async throws -> CLIRun {
        let directory = temporaryDirectory("exec-fields")
        let script = program(current: current, in: directory)
        let config = try temporaryConfiguration(#"{"providers": [{"id": "dew", "type": "exec", "command": ["/bin/sh", "\#(script)"]}]}"#)
        return await runCLI(["compare", "Minsk", "--format", "jsonl", "--config", config], environment: ["PATH": path])
    }

    @Test func dewPointAndUVIndexFromAPlugInReachTheComparison() async throws {
        let run = try await compare(current: #""temperature_c":3.5,"humidity_percent":80,"dew_point_c":0.25,"uv_index":1.5"#)
        #expect(run.code == 0, "\(run.stderr)")
        let result = try #require(try parseLines(run).first { (try? $0.string("type")) == "provider_result" })
        let current = try result.member("current")
        #expect(try current.double("dew_point") == 0.25)
        #expect(try current.double("uv_index") == 1.5)
        // Given, not computed from temperature and humidity.
        let derived = try current.member(ifPresent: "derived_fields")?.stringsOrNulls().compactMap { $0 } ?? []
        #expect(!derived.contains("dew_point"))
    }

    @Test func aUVIndexOutsideItsRangeIsThePlugInsErrorNamingTheField() async throws {
        let run = try await compare(current: #""temperature_c":3.5,"uv_index":40"#)
        let failure = try #require(try parseLines(run).first { (try? $0.string("type")) == "provider_error" }).member("error")
        #expect(try failure.string("code") == "bad_response")
        #expect(try failure.string("message").contains("$.report.current.uv_index"))
        #expect(try failure.string("message").contains("0…25"))
    }
}
