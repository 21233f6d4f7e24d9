import Foundation
@testable import IsobarCLI
import Testing

/// Each action of `cities`, `home`, `cache`, `archive` and `config` is a type of its own that checks its arguments against its
/// spec before it touches anything: a wrong count is one line naming the action as typed, exit 64, and nothing changes.
@Suite struct ActionArgumentsTests {
    @Test(arguments: [
        (["cities", "list", "Paris"], "isobar: 'cities' lists your cities; to add one: isobar cities add PLACE\n"),
        (["cities", "add"], "isobar: 'cities add' needs a PLACE\n"),
        (["cities", "rm"], "isobar: 'cities rm' needs a PLACE\n"),
        (["cities", "remove"], "isobar: 'cities remove' needs a PLACE\n"),
        (["cities", "add", "Minsk", "Moscow"], "isobar: unexpected argument 'Moscow' for 'cities add' (quote a place name with spaces: \"New York\")\n"),
        (["home", "set"], "isobar: 'home set' needs a PLACE\n"),
        (["home", "show", "Minsk"], "isobar: 'home show' takes no PLACE\n"),
        (["cache", "stats", "--shared"], "isobar: --shared goes with cache clear only\n"),
        (["cache", "prune", "--shared"], "isobar: --shared goes with cache clear only\n"),
        (["archive", "stats", "x.jsonl"], "isobar: archive stats takes no file; only import does\n"),
        (["archive", "export", "x.jsonl"], "isobar: archive export takes no file; only import does\n"),
        (["archive", "import"], "isobar: archive import needs a FILE (or - for stdin): isobar archive import FILE\n"),
        (["config", "list", "units"], "isobar: unexpected argument 'units' for 'config list'\n"),
        (["config", "path", "x"], "isobar: unexpected argument 'x' for 'config path'\n"),
    ])
    func aWrongNumberOfArgumentsIsOneLineNamingTheAction(arguments: [String], message: String) async {
        let data = temporaryDirectory("actions")
        let run = await runCLI(arguments, environment: ["XDG_DATA_HOME": data, "XDG_CONFIG_HOME": data])
        #expect(run.code == ExitCode.usage.rawValue)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == message)
        // Nothing was written: no cities, no home, no archive, no configuration file.
        #expect((try? FileManager.default.contentsOfDirectory(atPath: data)) == [])
    }

    @Test func configArgumentsComeFromTheActionsSpec() throws {
        let get = try ConfigCommand.invocation(["get", "units"])
        #expect(try ConfigCommand.arguments(get, of: "get") == ["units"])
        #expect(throws: UsageError("'config set KEY VALUE' needs a KEY and a VALUE")) { try ConfigCommand.arguments(get, of: "set") }
        #expect(throws: UsageError("unexpected argument 'units' for 'config list'")) { try ConfigCommand.arguments(get, of: "list") }
    }
}
