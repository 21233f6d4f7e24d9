import Foundation
import IsobarCLI
import IsobarCore
import Testing

@Suite struct ShortcutTests {
    @Test func aPlaceInsteadOfACommandShowsItsHomeView() async throws {
        let shortcut = await runCLI(["Tokyo", "--demo"])
        #expect(shortcut.code == 0, "\(shortcut.stderr)")
        #expect(shortcut.stdout.hasPrefix("Tokyo, Tokyo, JP"))
        #expect(shortcut.stdout.contains("Now ("))
        let lines = try parseLines(await runCLI(["Tokyo", "--demo", "--json"]))
        #expect(try lines.last?.string("type") == "consensus")
        #expect(try lines.last?.member("place").string("name") == "Tokyo")
    }

    @Test func aMistypedCommandIsStillAUsageErrorWithASuggestion() async {
        let run = await runCLI(["compar", "Minsk", "--demo"])
        #expect(run.code == ExitCode.usage.rawValue)
        #expect(run.stderr.contains("did you mean 'compare'?"))
        #expect(run.stdout.isEmpty)
    }

    @Test func anUnknownWordIsAnUnknownPlace() async {
        let run = await runCLI(["Qwxzzt", "--demo"])
        #expect(run.code == ExitCode.badPlace.rawValue)
        #expect(run.stderr.contains("unknown place 'Qwxzzt'"))
    }

    @Test func cacheAloneShowsTheStatistics() async throws {
        let environment = ["XDG_CACHE_HOME": temporaryDirectory("cache-alone")]
        let alone = await runCLI(["cache"], environment: environment)
        #expect(alone.code == 0)
        #expect(alone.stdout.hasPrefix("Cache "))
        #expect(alone.stdout.contains("0 answer(s)"))
        let stats = await runCLI(["cache", "stats"], environment: environment)
        #expect(alone.stdout.split(separator: ":").first == stats.stdout.split(separator: ":").first)
        #expect(try parseLines(await runCLI(["cache", "--json"], environment: environment)).first?.string("type") == "cache_stats")
    }
}
