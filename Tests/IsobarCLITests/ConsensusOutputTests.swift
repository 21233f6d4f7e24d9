import Foundation
import IsobarCLI
import IsobarCore
import Testing

/// A configuration with the two bundled providers plus a third Open-Meteo replay whose Minsk answer runs `bias` °C warm.
func threeProviderConfiguration(bias: Double) throws -> String {
    let directory = temporaryDirectory("biased")
    let original = try String(contentsOfFile: dataDirectory + "/cassettes/open-meteo/minsk.json", encoding: .utf8)
    let cassette = try JSONDocument(parsing: original).rootValue
    let interaction = try #require(try cassette.member("interactions").elements().first)
    let body = try interaction.member("response").string("body")
    let current = try JSONDocument(parsing: body).rootValue.member("current")
    let temperature = try current.double("temperature_2m")
    // Shift the current temperature only, keeping the body byte-identical otherwise.
    let shifted = body.replacingOccurrences(of: "\"temperature_2m\":\(String(format: "%.1f", temperature)),\"relative",
                                            with: "\"temperature_2m\":\(String(format: "%.1f", temperature + bias)),\"relative")
    #expect(shifted != body)
    let biased = original.replacingOccurrences(of: JSONOutput.string(body).serialized().dropFirst().dropLast().description,
                                               with: JSONOutput.string(shifted).serialized().dropFirst().dropLast().description)
    try FileManager.default.createDirectory(atPath: directory + "/open-meteo-warm", withIntermediateDirectories: true)
    try biased.write(toFile: directory + "/open-meteo-warm/minsk.json", atomically: true, encoding: .utf8)
    // Two Open-Meteo entries are one family; weighed each in full, they make the three sources the outlier rule needs.
    return try temporaryConfiguration("""
    {"family_weight": "each", "providers": [
      {"id": "openweathermap", "type": "openweathermap", "replay": "\(dataDirectory)/cassettes/openweathermap"},
      {"id": "open-meteo", "type": "open-meteo", "replay": "\(dataDirectory)/cassettes/open-meteo"},
      {"id": "open-meteo-warm", "type": "open-meteo", "replay": "\(directory)/open-meteo-warm"}
    ]}
    """)
}

@Suite struct ConsensusOutputTests {
    @Test func anOutlierIsLeftOutMarkedAndListed() async throws {
        let config = try threeProviderConfiguration(bias: 8)
        let run = await runCLI(["compare", "Minsk", "--config", config, "--format", "jsonl"])
        #expect(run.code == 0, "\(run.stderr)")
        let current = try #require(try parseLines(run).last).member("current")
        let temperature = try current.member("merged").member("temperature")
        #expect(try temperature.member("outliers").stringsOrNulls() == ["open-meteo-warm"])
        #expect(try temperature.member("providers").stringsOrNulls() == ["openweathermap", "open-meteo"])
        // The median of the two left: (0.04 + −0.9) / 2.
        #expect(try current.double("temperature") == -0.43)
        #expect(try temperature.double("max") == 7.1)
        let inputs = try temperature.member("inputs").elements()
        #expect(try inputs.map { try $0.member("outlier").bool() } == [false, false, true])
        let table = await runCLI(["compare", "Minsk", "--config", config])
        #expect(table.stdout.contains("7.1*"))
        #expect(table.stdout.contains("* left out of the consensus and of the Spread as an outlier"))
    }

    // Open-Meteo's best match, one source: two sources weigh 2, so a disagreement is reported, no outlier.
    @Test func twoProvidersReportTheirDisagreement() async throws {
        let run = await runCLI(["compare", "Minsk", "--config", bestMatchDemoConfig, "--format", "jsonl", "--providers", "openweathermap,open-meteo"])
        let current = try #require(try parseLines(run).last).member("current")
        let feelsLike = try current.member("merged").member("apparent_temperature").member("disagreement")
        #expect(try feelsLike.double("difference") == 2.34)
        #expect(try feelsLike.double("floor") == 3)
        #expect(try !feelsLike.member("exceeds_floor").bool())
        let confidence = try current.double("confidence")
        #expect(confidence > 0 && confidence < 1)
        #expect(try current.string("condition") == "snow")
        let votes = try current.member("merged").member("condition").member("votes").elements()
        #expect(try votes.map { [try $0.string("provider"), try $0.string("condition")] } == [["openweathermap", "snow"], ["open-meteo", "snow"]])
    }

    @Test func weightsMoveTheConsensusAndZeroLeavesAProviderOut() async throws {
        let two = ["--providers", "openweathermap,open-meteo"]
        // Open-Meteo's best match, one source, so that the weights are the whole story.
        let equal = try #require(try parseLines(await runCLI(["compare", "Minsk", "--config", bestMatchDemoConfig, "--format", "jsonl"] + two)).last)
        let weighted = try #require(try parseLines(await runCLI(["compare", "Minsk", "--config", bestMatchDemoConfig, "--format", "jsonl",
                                                                 "--weights", "openweathermap=3"] + two)).last)
        // Equal weights: the mean of the two; weight 3 against 1: OpenWeatherMap's value.
        #expect(try equal.member("current").double("temperature") == -0.43)
        #expect(try weighted.member("current").double("temperature") == 0.04)
        let weights = try weighted.member("outcomes").elements().map { (try $0.string("provider"), try $0.double("weight")) }
        #expect(weights.map(\.0) == ["openweathermap", "open-meteo"] && weights.map(\.1) == [3, 1])
        let without = try #require(try parseLines(await runCLI(["compare", "Minsk", "--config", bestMatchDemoConfig, "--format", "jsonl",
                                                                "--weights", "openweathermap=0"] + two)).last)
        #expect(try without.member("excluded").stringsOrNulls() == ["openweathermap"])
        #expect(try without.member("current").double("temperature") == -0.9)
        expectOneLineError(await runCLI(["compare", "Minsk", "--demo", "--weights", "open-meteo"]), code: .usage, containing: "id=weight pairs")
        expectOneLineError(await runCLI(["compare", "Minsk", "--demo", "--weights", "openmeteo=2"]), code: .usage,
                           containing: "did you mean 'open-meteo'?")
        expectOneLineError(await runCLI(["compare", "Minsk", "--demo", "--weights", "open-meteo=-1"]), code: .usage, containing: "id=weight pairs")
    }

    @Test func forecastDaysFollowTheZoneAcrossDST() async throws {
        let run = await runCLI(["forecast", "New York", "--demo", "--format", "jsonl", "--days", "2"])
        let consensus = try #require(try parseLines(run).last)
        #expect(try consensus.string("zone") == "America/New_York")
        let days = try consensus.member("daily").elements()
        #expect(try days.first?.string("start") == "2026-11-28T00:00:00-05:00")
        #expect(try days.first?.double("hours") == 24)
    }
}
