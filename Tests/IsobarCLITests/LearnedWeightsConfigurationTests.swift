import Foundation
import IsobarCLI
import IsobarCore
import IsobarStore
import Testing

/// Parses configuration text.
private func parse(_ text: String) throws(ConfigurationError) -> Configuration {
    try Configuration.parse(Array(text.utf8), file: "config.json", directory: "/tmp")
}

@Suite("Configuration: learned weights")
struct LearnedWeightsConfigurationTests {
    @Test("weights default to equal, without bias correction")
    func defaults() throws {
        let configuration = try parse(#"{"providers":[]}"#)
        #expect(configuration.weighting == .equal)
        #expect(!configuration.biasCorrection)
    }

    @Test("weights auto with bias correction")
    func auto() throws {
        let configuration = try parse(#"{"weights":"auto","bias_correction":true,"providers":[]}"#)
        #expect(configuration.weighting == .auto)
        #expect(configuration.biasCorrection)
    }

    @Test("bad weights and bias corrections are one-line errors", arguments: [
        (#"{"weights":"learned","providers":[]}"#, "weights must be \"auto\" or \"equal\""),
        (#"{"weights":2,"providers":[]}"#, "weights"),
        (#"{"bias_correction":"yes","providers":[]}"#, "bias_correction"),
    ])
    func errors(text: String, fragment: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message.contains(fragment), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }
}

@Suite("Learned weights in the output")
struct LearnedWeightsOutputTests {
    /// The demo's providers and recordings without `--demo`, so that the (empty) user archive is what is learned from.
    static var demoConfiguration: [String] { ["--config", dataDirectory + "/demo.json"] }

    @Test func theDemoLearnsFromItsRecordedHistoryAndNeverTouchesTheArchive() async throws {
        let data = temporaryDirectory("demo-learning")
        let run = await runCLI(["compare", "Minsk", "--demo", "--format", "jsonl", "--weights", "auto"], environment: ["XDG_DATA_HOME": data])
        #expect(run.code == 0, "\(run.stderr)")
        let consensus = try #require(try parseLines(run).last { try $0.string("type") == "consensus" })
        #expect(try consensus.string("weighting") == "learned")
        let temperature = try consensus.member("current").member("merged").member("temperature")
        #expect(try temperature.member("inputs").elements().allSatisfy { try $0.double("learned_weight") > 0 })
        // The user's archive is neither read nor written.
        #expect(!FileManager.default.fileExists(atPath: data + "/isobar"))
    }

    @Test func withTooLittleHistoryTheConsensusSaysSoAndGivesSpreadIntervals() async throws {
        let demo = Self.demoConfiguration
        let run = await runCLI(["compare", "Minsk", "--format", "jsonl", "--weights", "auto"] + demo)
        #expect(run.code == 0, "\(run.stderr)")
        let consensus = try #require(try parseLines(run).last { try $0.string("type") == "consensus" })
        #expect(try consensus.string("weighting") == "equal (too little history)")
        let temperature = try consensus.member("current").member("merged").member("temperature")
        #expect(try temperature.string("interval_basis") == "spread")
        let interval = try temperature.member("interval_80").elements().map { try $0.double() }
        let value = try consensus.member("current").double("temperature")
        #expect(interval.count == 2 && interval[0] < value && value < interval[1])
        #expect(try temperature.member("inputs").elements().allSatisfy { try $0.double("correction") == 0 })
        // The same values as the configured weights give.
        let plain = await runCLI(["compare", "Minsk", "--format", "jsonl"] + demo)
        #expect(try #require(try parseLines(plain).last { try $0.string("type") == "consensus" }).member("current").double("temperature") == value)
        // A day's amounts get the spread-based interval too; sun times and the dominant direction do not.
        let forecast = await runCLI(["forecast", "Minsk", "--days", "2", "--format", "jsonl", "--weights", "auto"] + demo)
        #expect(forecast.code == 0, "\(forecast.stderr)")
        let forecastConsensus = try #require(try parseLines(forecast).last)
        let day = try #require(try forecastConsensus.member("daily").elements().first)
        let maximum = try day.member("merged").member("temperature_max")
        #expect(try maximum.string("interval_basis") == "spread")
        let dayInterval = try maximum.member("interval_80").elements().map { try $0.double() }
        let dayValue = try day.double("temperature_max")
        #expect(dayInterval.count == 2 && dayInterval[0] < dayValue && dayValue < dayInterval[1])
        #expect(try day.member("merged").member("sunrise").member(ifPresent: "interval_80") == nil)
        #expect(try day.member("merged").member("wind_direction_dominant").member(ifPresent: "interval_80") == nil)
        let table = await runCLI(["compare", "Minsk", "--weights", "auto"] + demo)
        #expect(table.stdout.contains("Weights: equal (too little history"))
        #expect(table.stdout.contains("80 % interval"))
    }

    @Test func biasCorrectionNeedsLearnedWeights() async {
        let run = await runCLI(["compare", "Minsk", "--demo", "--bias-correction"])
        #expect(run.code == 64)
        #expect(run.stderr.contains("--bias-correction needs learned weights"))
    }
}

@Suite("Learned weights from an archive")
struct LearnedWeightsArchiveTests {
    /// Ten days of forecasts for Minsk from the two demo providers (OpenWeatherMap 1 °C warm), issued at midnight for
    /// the next six hours, with the truth observed every hour.
    static func seededDataHome() async throws -> String {
        let home = temporaryDirectory("learned-data")
        let store = try await UserDataStore.open(directory: home + "/isobar")
        let minsk = Place(name: "Minsk", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!)
        let recorded = Date(timeIntervalSince1970: 1_795_856_400 + 3 * 3_600)
        let firstDay = Date(timeIntervalSince1970: (recorded.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 - 10 * 86_400)
        for day in 0..<10 {
            let issued = firstDay.addingTimeInterval(Double(day) * 86_400)
            for (provider, offset) in [("openweathermap", 1.0), ("open-meteo", 0.0)] {
                let steps = (0..<6).map { lead in
                    var step = WeatherSample(time: issued.addingTimeInterval(Double(lead) * 3_600), periodHours: 1)
                    step.temperatureC = Double(lead) + offset + (lead % 2 == 0 ? 0.3 : -0.3)
                    return step
                }
                try await store.archive(WeatherReport(providerID: provider, place: minsk, fetchedAt: issued, hourly: steps))
            }
            for lead in 0..<6 {
                var observed = WeatherSample(time: issued.addingTimeInterval(Double(lead) * 3_600), periodHours: 1)
                observed.temperatureC = Double(lead)
                try await store.archiveObservation(observed, source: "metar", station: "UMMS", place: minsk)
            }
        }
        return home
    }

    @Test func enoughHistoryGivesLearnedWeightsAndCorrections() async throws {
        let home = try await Self.seededDataHome()
        let demo = LearnedWeightsOutputTests.demoConfiguration
        let run = await runCLI(["compare", "Minsk", "--format", "jsonl", "--weights", "auto", "--bias-correction"] + demo,
                               environment: ["XDG_DATA_HOME": home])
        #expect(run.code == 0, "\(run.stderr)")
        let consensus = try #require(try parseLines(run).last { try $0.string("type") == "consensus" })
        #expect(try consensus.string("weighting") == "learned (bias-corrected)")
        let temperature = try consensus.member("current").member("merged").member("temperature")
        #expect(try temperature.string("interval_basis") == "record")
        #expect(try temperature.string("weighting") == "learned (bias-corrected)")
        let corrections = try temperature.member("inputs").elements().map { (try $0.string("provider"), try $0.double("correction")) }
        #expect(corrections.contains { $0.0 == "openweathermap" && abs($0.1 - 1) < 0.05 })
        let table = await runCLI(["compare", "Minsk", "--weights", "auto", "--bias-correction"] + demo, environment: ["XDG_DATA_HOME": home])
        #expect(table.stdout.contains("bias corrections learned from the forecast archive"))
    }
}
