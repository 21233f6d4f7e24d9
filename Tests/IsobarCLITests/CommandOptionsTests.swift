import Foundation
@testable import IsobarCLI
import IsobarCore
import Testing

@Suite struct CommandOptionsTests {
    @Test(arguments: [("90", 90.0), ("90s", 90), ("15m", 900), ("1h", 3600), ("2d", 172_800), ("1.5h", 5400), (" 30S ", 30), ("0", 0)])
    func durationsAreReadInEveryUnit(text: String, seconds: Double) {
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test(arguments: ["", "s", "-5", "5x", "1e400", "inf", "nan", "5 m", "1h30m", "٥"])
    func badDurationsAreRefused(text: String) {
        #expect(DurationText.seconds(text) == nil)
    }

    @Test func aCommandsOwnOptionsReachItAloneTyped() throws {
        let search = try SearchCommand.invocation(["Minsk", "--limit", "3", "--add"])
        #expect(search.own(SearchOptions.self).limit == 3 && search.own(SearchOptions.self).add)
        // Another command's options are the defaults: nothing of search's reaches them.
        #expect(search.own(CacheOptions.self).olderThanSeconds == 86_400)
        #expect(try LearnCommand.invocation(["Minsk", "--days", "92"]).own(LearnOptions.self).days == 92)
        #expect(throws: UsageError("--days takes a whole number from 1 to 92, not '93'")) { try LearnCommand.invocation(["Minsk", "--days", "93"]) }
        #expect(throws: UsageError("--limit takes a whole number from 1 to 50, not '0'")) { try SearchCommand.invocation(["Minsk", "--limit", "0"]) }
        let setup = try SetupCommand.invocation(["--contact", "a@example.org", "--key-env", "openweathermap=OWM", "--yes"]).own(SetupOptions.self)
        #expect(setup.contact == "a@example.org" && setup.keyVariables == [KeyVariable(type: "openweathermap", variable: "OWM")] && setup.yes && !setup.force)
        // With --help, nothing is checked: the defaults.
        #expect(try SearchCommand.invocation(["Minsk", "--limit", "0", "--help"]).own(SearchOptions.self).limit == 10)
        // Every option a command reads of its own is one its spec lists (and so one its help shows).
        let owners: [(CommandSpec, [String])] = [(SearchCommand.spec, SearchOptions.names), (CacheCommand.spec, CacheOptions.names),
                                                 (ArchiveCommand.spec, ArchiveOptions.names), (VerifyCommand.spec, VerifyOptions.names),
                                                 (LearnCommand.spec, LearnOptions.names), (ProvidersCommand.spec, ProvidersOptions.names),
                                                 (CompletionsCommand.spec, CompletionsOptions.names), (SetupCommand.spec, SetupOptions.names),
                                                 (BatchCommand.spec, BatchOptions.names), (ForecastCommand.spec, HorizonOptions.names),
                                                 (AirCommand.spec, HorizonOptions.names), (AlertsCommand.spec, FailOnOptions.names),
                                                 (NowCommand.spec, FailOnOptions.names)]
        for (spec, names) in owners {
            for name in names { #expect(spec.options.contains { $0.name == name }, "\(spec.name) reads --\(name) but does not list it") }
        }
    }

    @Test func durationsWorkWhereSecondsDid() throws {
        let options = try Invocation(["Minsk", "--timeout", "2m", "--max-age", "1h"], command: Commands.compare).options
        #expect(options.timeoutSeconds == 120)
        #expect(options.maxAgeSeconds == 3600)
        let prune = try CacheCommand.invocation(["prune", "--older-than", "2d"]).own(CacheOptions.self)
        #expect(prune.olderThanSeconds == 172_800)
        #expect(try ArchiveCommand.invocation(["prune", "--older-than", "1h"]).own(ArchiveOptions.self).olderThanSeconds == 3600)
        #expect(try ArchiveCommand.invocation(["prune"]).own(ArchiveOptions.self).olderThanSeconds == nil)
        #expect(throws: UsageError("--older-than takes a duration up to ten years (90, 90s, 15m, 1h, 2d), not 'soon'")) {
            try CacheCommand.invocation(["prune", "--older-than", "soon"])
        }
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "--timeout", "11m"], command: Commands.compare) }
    }

    @Test func jsonIsAShortcutForFormatJSONLines() throws {
        #expect(try Invocation(["Minsk", "--json"], command: Commands.compare).options.format == .jsonl)
        #expect(try Invocation(["Minsk", "--json", "--format", "jsonl"], command: Commands.compare).options.format == .jsonl)
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "--json", "--format", "table"], command: Commands.compare) }
        #expect(try Invocation(["stats", "--json"], command: Commands.cache).options.format == .jsonl)
        #expect(try Invocation(["--json"], command: Commands.providers).options.format == .jsonl)
    }

    @Test func shortFlagsStandForTheirLongOptions() throws {
        #expect(try Invocation(["Minsk", "-v"], command: Commands.compare).options.verbose)
        #expect(try Invocation(["Minsk", "-h"], command: Commands.compare).options.help)
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "-x"], command: Commands.compare) }
    }

    @Test func conflictingOptionsAreRefusedBeforeAnythingRuns() {
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "--demo", "--config", "x.json"], command: Commands.compare) }
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "--offline", "--refresh"], command: Commands.compare) }
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "--record", "d", "--replay", "e"], command: Commands.compare) }
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "--weights", "a=-1"], command: Commands.compare) }
        #expect(throws: UsageError.self) { try Invocation(["Minsk", "--providers", ","], command: Commands.compare) }
        #expect(throws: UsageError("--days takes a whole number from 1 to 16, not '17'")) { try ForecastCommand.invocation(["Minsk", "--days", "17"]) }
    }
}

@Suite struct WeatherOwnOptionsTests {
    @Test func batchReadsItsOwnOptionsTyped() throws {
        let batch = try BatchCommand.invocation(["places.txt", "--kind", "daily", "--days", "3", "--jobs", "16", "--order", "input",
                                                 "--deadline", "15m", "--quiet"]).own(BatchOptions.self)
        #expect(batch.kind == .daily && batch.days == 3 && batch.daysGiven && batch.jobs == 16 && batch.order == .input)
        #expect(batch.deadlineSeconds == 900 && batch.quiet)
        let defaults = try BatchCommand.invocation([]).own(BatchOptions.self)
        #expect(defaults.kind == .current && defaults.days == 7 && !defaults.daysGiven && defaults.jobs == 8 && defaults.order == .completion)
        #expect(defaults.deadlineSeconds == nil && !defaults.quiet)
    }

    @Test(arguments: [
        (["--jobs", "0"], "--jobs takes a whole number from 1 to 256, not '0'"),
        (["--jobs", "257"], "--jobs takes a whole number from 1 to 256, not '257'"),
        (["--deadline", "0"], "--deadline takes a duration up to a year (90, 90s, 15m, 1h, 2d), not '0'"),
        (["--deadline", "367d"], "--deadline takes a duration up to a year (90, 90s, 15m, 1h, 2d), not '367d'"),
        (["--days", "0"], "--days takes a whole number from 1 to 16, not '0'"),
        (["--kind", "weekly"], "invalid value 'weekly' for --kind: expected current, hourly, daily, air"),
    ])
    func batchRefusesBadValuesWithOneLine(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try BatchCommand.invocation(arguments) }
    }

    @Test func forecastAndAirReadDaysAndHours() throws {
        let forecast = try ForecastCommand.invocation(["Minsk", "--days", "16", "--hourly"]).own(HorizonOptions.self)
        #expect(forecast.days == 16 && forecast.daysGiven && forecast.hourly)
        let air = try AirCommand.invocation(["Minsk"]).own(HorizonOptions.self)
        #expect(air.days == 7 && !air.daysGiven && !air.hourly)
        #expect(throws: UsageError("--days takes a whole number from 1 to 16, not 'x'")) { try AirCommand.invocation(["Minsk", "--days", "x"]) }
        // Commands that do not take them refuse them as they always did.
        #expect(throws: UsageError("unknown option '--days' for 'compare'")) { try CompareCommand.invocation(["Minsk", "--days", "3"]) }
    }

    @Test func failOnReachesAlertsAndNowOnly() throws {
        #expect(try AlertsCommand.invocation(["Oslo", "--fail-on", "SEVERE"]).own(FailOnOptions.self).failOn == .severe)
        #expect(try NowCommand.invocation(["Oslo", "--fail-on", "minor"]).own(FailOnOptions.self).failOn == .minor)
        #expect(try NowCommand.invocation(["Oslo"]).own(FailOnOptions.self).failOn == nil)
        #expect(throws: UsageError.self) { try NowCommand.invocation(["Oslo", "--fail-on", "bad"]) }
        #expect(throws: UsageError.self) { try ForecastCommand.invocation(["Oslo", "--fail-on", "minor"]) }
        // Read for one command, they are the defaults for any other.
        #expect(try NowCommand.invocation(["Oslo", "--fail-on", "minor"]).own(HorizonOptions.self).days == 7)
    }
}
