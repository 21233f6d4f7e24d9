import Foundation
import IsobarCLI
import Testing

@Suite struct HelpTests {
    /// Compares with a golden file; set ISOBAR_UPDATE_GOLDEN=1 to rewrite it.
    func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = packageRoot + "/Tests/IsobarCLITests/Golden/\(name)"
        let normalized = text.replacingOccurrences(of: dataDirectory, with: "<data>")
        if ProcessInfo.processInfo.environment["ISOBAR_UPDATE_GOLDEN"] == "1" {
            try normalized.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(normalized == expected, sourceLocation: sourceLocation)
    }

    @Test func overviewHelp() async throws {
        let run = await runCLI(["--help"])
        #expect(run.code == 0)
        try expectGolden(run.stdout, "help.txt")
    }

    @Test(arguments: ["compare", "now", "forecast", "search", "cities", "home", "cache", "providers"])
    func commandHelpListsOptionsAndConfiguredProviders(command: String) async throws {
        let run = await runCLI([command, "--help"] + (["cache"].contains(command) ? [] : ["--demo"]))
        #expect(run.code == 0)
        #expect(run.stdout.contains("--help"))
        if command != "cache" {
            #expect(run.stdout.contains(try Regex("openweathermap +type openweathermap, replays \(dataDirectory)/cassettes/openweathermap\n")))
        }
        #expect(run.stdout.contains(/open-meteo +type open-meteo/))
        try expectGolden(run.stdout, "\(command)-help.txt")
    }

    @Test func helpWithoutAPlaceIsNotAnError() async {
        let run = await runCLI(["forecast", "-h"])
        #expect(run.code == 0)
        #expect(run.stdout.contains("--hourly"))
    }

    @Test(arguments: ["--version", "-V"])
    func version(flag: String) async {
        let run = await runCLI([flag])
        #expect(run.code == 0)
        #expect(run.stdout == "isobar \(IsobarCommandLine.version)\n")
    }

    @Test func helpShowsTheOverview() async {
        let run = await runCLI(["help"])
        #expect(run.code == 0)
        #expect(run.stdout.contains("Usage: isobar <command> <place> [options]"))
    }
}
