import Foundation
import IsobarCLI
import IsobarCore
import Testing

/// A provider that breaks rules on purpose: a humidity of 150 % and a step two months ahead.
private struct CarelessProvider: WeatherProvider {
    let id: String
    var displayName: String { "Careless" }
    var capabilities: ProviderCapabilities {
        ProviderCapabilities(kinds: [.current, .hourly], horizonDays: 2, stepHours: 1, quantities: [.temperature, .humidity],
                             requiresAPIKey: false, geocoding: false)
    }

    func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        let now = context.time.now()
        var current = WeatherSample(time: now, periodHours: 1)
        current.temperatureC = 3
        current.humidityPercent = 150
        var later = WeatherSample(time: now.addingTimeInterval(60 * 86_400), periodHours: 1)
        later.temperatureC = 4
        return WeatherReport(providerID: id, place: request.place, fetchedAt: now, current: current, hourly: [later])
    }
}

private let carelessRegistry = ProviderRegistry(factories: ProviderRegistry.standard().factories + [
    ProviderFactory(type: "careless", summary: "Careless: a test provider", make: { context throws(ProviderError) in
        CarelessProvider(id: context.settings.id)
    }),
])

/// `isobar providers check`: every bundled provider passes on the demo recordings; broken ones fail, naming the rule.
@Suite(.serialized) struct ProvidersCheckTests {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"

    /// The rules and verdicts of a JSON-lines run.
    func verdicts(_ run: CLIRun) throws -> [(rule: String, verdict: String, detail: String?)] {
        try parseLines(run).map { line in
            #expect(try line.string("type") == "provider_check")
            return (try line.string("rule"), try line.string("verdict"), try line.optionalString("detail"))
        }
    }

    @Test(arguments: ["openweathermap", "open-meteo", "met-norway", "nws"])
    func everyBundledProviderPassesOnTheDemoRecordings(_ id: String) async throws {
        let run = await runCLI(["providers", "check", id, "--demo", "--json"])
        #expect(run.code == 0, "\(run.stdout)\(run.stderr)")
        let verdicts = try verdicts(run)
        #expect(verdicts.map(\.rule).contains("fetch succeeds on a recorded answer"))
        #expect(verdicts.map(\.rule).contains("every value within its physical range (report validation)"))
        for verdict in verdicts { #expect(verdict.verdict == "pass", "\(id): \(verdict.rule): \(verdict.detail ?? "")") }
    }

    @Test func theTableNamesEachRuleAndItsVerdict() async throws {
        let run = await runCLI(["providers", "check", "nws", "--demo"])
        #expect(run.code == 0, "\(run.stderr)")
        // Without a place: the first bundled place the plug-in's declared coverage holds.
        #expect(run.stdout.hasPrefix("Checking nws (National Weather Service (US), replay "))
        #expect(run.stdout.contains(" on New York, US:\n"))
        #expect(run.stdout.contains("\ndaily minimum ≤ maximum "))
        #expect(run.stdout.hasSuffix("\nAll 37 rules checked pass.\n"))
    }

    @Test func aPlaceOutsideTheDeclaredCoverageFailsThatRule() async throws {
        let run = await runCLI(["providers", "check", "nws", "Minsk", "--demo", "--json"])
        #expect(run.code == ExitCode.checkFailed.rawValue)
        let verdicts = try verdicts(run)
        #expect(verdicts.first?.rule == "covers the place asked for")
        #expect(verdicts.first?.verdict == "fail")
        #expect(verdicts.dropFirst().allSatisfy { $0.verdict == "not_checked" })
    }

    @Test func anUnknownProviderIsAUsageError() async {
        let run = await runCLI(["providers", "check", "open-meteoo", "--demo"])
        #expect(run.code == ExitCode.usage.rawValue)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "isobar: unknown provider 'open-meteoo'; did you mean 'open-meteo'?; configured providers are openweathermap, open-meteo, met-norway, nws, nws-alerts, met-alerts, meteoalarm, openweathermap-alerts\n")
        let missing = await runCLI(["providers", "check", "--demo"])
        #expect(missing.code == ExitCode.usage.rawValue)
        #expect(missing.stderr.hasPrefix("isobar: 'providers check' needs a provider ID"))
        let place = await runCLI(["providers", "check", "open-meteo", "Atlantisxq", "--demo"])
        #expect(place.code == ExitCode.badPlace.rawValue)
    }

    /// A fetch-mode program (no HTTP) answering `report` for every fetch.
    func brokenProgram(_ report: String) throws -> String {
        let directory = temporaryDirectory("check-broken")
        let program = directory + "/broken.sh"
        let text = """
            #!/bin/sh
            input=$(cat)
            case "$input" in
            *'"call":"describe"'*) echo '{"protocol":1,"ok":true,"describe":{"id":"broken","name":"Broken","kinds":["hourly"],"horizon_days":2,"coverage":"global","mode":"fetch","quantities":["temperature"]}}' ;;
            *) echo '{"protocol":1,"ok":true,"report":\(report)}' ;;
            esac
            """
        _ = FileManager.default.createFile(atPath: program, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
        return try temporaryConfiguration(#"{"providers": [{"id": "broken", "type": "exec", "command": ["\#(program)"]}]}"#)
    }

    @Test func aProgramReturningAnImpossibleValueFailsNamingTheRuleAndThePath() async throws {
        let config = try brokenProgram(#"{"units":"si","hourly":[{"time":"2026-11-28T10:00:00Z","temperature_c":99}]}"#)
        let run = await runCLI(["providers", "check", "broken", "--config", config, "--json"], environment: ["PATH": path])
        #expect(run.code == ExitCode.checkFailed.rawValue, "\(run.stderr)")
        let verdicts = try verdicts(run)
        let failed = verdicts.filter { $0.verdict == "fail" }
        #expect(failed.map(\.rule) == ["fetch succeeds on a recorded answer"])
        #expect(failed.first?.detail?.contains("$.report.hourly[0].temperature_c") == true)
        // A program that fetches itself is never given a server's 500; the rules after a failed fetch are not checked.
        #expect(verdicts.first { $0.rule == "an HTTP 500 is an `unavailable` error" }?.verdict == "not_applicable")
        #expect(verdicts.first { $0.rule == "steps in strictly increasing time order" }?.verdict == "not_checked")

        let table = await runCLI(["providers", "check", "broken", "--config", config], environment: ["PATH": path, "COLUMNS": "80"])
        #expect(table.code == ExitCode.checkFailed.rawValue)
        #expect(table.stdout.contains("\nfetch succeeds on a recorded answer"))
        #expect(table.stdout.contains("\nFAIL fetch succeeds on a recorded answer: "))
        #expect(table.stdout.hasSuffix("\n1 of 6 rules checked fail.\n"))
        #expect(table.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func aGoodProgramThatFetchesItselfPassesWithTheServerRuleNotApplicable() async throws {
        let config = try brokenProgram(#"{"units":"si","hourly":[{"time":"2026-11-28T10:00:00Z","temperature_c":1}]}"#)
        let run = await runCLI(["providers", "check", "broken", "--config", config, "--json"], environment: ["PATH": path])
        #expect(run.code == 0, "\(run.stdout)\(run.stderr)")
        let verdicts = try verdicts(run)
        #expect(verdicts.filter { $0.verdict != "pass" }.map(\.rule) == ["an HTTP 500 is an `unavailable` error"])
        #expect(verdicts.first { $0.rule == "an HTTP 500 is an `unavailable` error" }?.verdict == "not_applicable")
    }

    @Test func aProgramWithDisorderedStepsFails() async throws {
        let config = try brokenProgram(
            #"{"units":"si","hourly":[{"time":"2026-11-28T11:00:00Z","temperature_c":1},{"time":"2026-11-28T10:00:00Z","temperature_c":2}]}"#)
        let run = await runCLI(["providers", "check", "broken", "--config", config, "--json"], environment: ["PATH": path])
        #expect(run.code == ExitCode.checkFailed.rawValue)
        let failed = try verdicts(run).filter { $0.verdict == "fail" }
        #expect(failed.map(\.rule) == ["fetch succeeds on a recorded answer"])
        #expect(failed.first?.detail?.contains("$.report.hourly[1]") == true)
    }

    @Test func aCompiledProviderBreakingRangesAndTimesFailsThoseRules() async throws {
        let config = try temporaryConfiguration(#"{"providers": [{"id": "careless", "type": "careless"}]}"#)
        let run = await runCLI(["providers", "check", "careless", "Minsk", "--config", config, "--json"], registry: carelessRegistry)
        #expect(run.code == ExitCode.checkFailed.rawValue, "\(run.stderr)")
        let failed = try verdicts(run).filter { $0.verdict == "fail" }
        #expect(failed.map(\.rule) == [
            "humidity in 0…100 %", "an HTTP 500 is an `unavailable` error",
            "every value within its physical range (report validation)", "every time plausible around the answer (report validation)",
        ])
        #expect(failed[2].detail == "current.humidity_percent 150 outside 0…100")
        #expect(failed[3].detail?.hasPrefix("hourly[0].time ") == true)
    }
}
