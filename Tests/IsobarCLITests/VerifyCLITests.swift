import Foundation
import IsobarCLI
import IsobarCore
import IsobarStore
import Testing

@Suite struct VerifyCLITests {
    /// Two days of hourly observations at Minsk and forecasts issued every 6 hours by a close and a warm provider,
    /// ending at the moment the tests run at.
    func seededEnvironment() async throws -> [String: String] {
        let data = temporaryDirectory("verify-data")
        let store = try await UserDataStore.open(directory: data + "/isobar")
        let minsk = Place(name: "Minsk", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!)
        let end = Date(timeIntervalSince1970: 1_795_856_400 + 3 * 3_600)
        func truth(_ hour: Int) -> Double { -3 + Double(hour % 24) / 6 }
        for hour in 0..<48 {
            var observed = WeatherSample(time: end.addingTimeInterval(Double(hour - 48) * 3_600), periodHours: 1)
            observed.temperatureC = truth(hour)
            try await store.archiveObservation(observed, source: "metar", station: "UMMS", place: minsk)
        }
        for issue in stride(from: 0, to: 42, by: 6) {
            for (provider, offset) in [("close", 0.5), ("warm", 2.5)] {
                let steps = (0..<12).map { lead -> WeatherSample in
                    var step = WeatherSample(time: end.addingTimeInterval(Double(issue + lead - 48) * 3_600), periodHours: 1)
                    step.temperatureC = truth(issue + lead) + offset
                    return step
                }
                let fetchedAt = end.addingTimeInterval(Double(issue - 48) * 3_600)
                try await store.archive(WeatherReport(providerID: provider, place: minsk, fetchedAt: fetchedAt, hourly: steps))
            }
        }
        return ["XDG_DATA_HOME": data]
    }

    @Test func eachProviderIsScoredByLeadTimeAndTheBestIsMarked() async throws {
        let environment = try await seededEnvironment()
        let lines = try parseLines(await runCLI(["verify", "Minsk", "--json"], environment: environment))
        let scores = try Dictionary(uniqueKeysWithValues: lines.map { (try $0.string("provider") + " " + $0.string("lead"), $0) })
        #expect(Set(scores.keys) == ["close 0-6h", "close 6-24h", "warm 0-6h", "warm 6-24h"])
        let warm = try #require(scores["warm 0-6h"])
        #expect(try warm.string("type") == "score" && warm.string("field") == "temperature" && warm.string("unit") == "°C")
        #expect(try abs(warm.double("bias") - 2.5) < 1e-9 && abs(warm.double("mae") - 2.5) < 1e-9 && warm.double("hit_rate") == 0)
        #expect(try warm.int("pairs") == 7 * 6)
        let close = try #require(scores["close 6-24h"])
        #expect(try abs(close.double("mae") - 0.5) < 1e-9 && close.double("hit_rate") == 1 && close.double("skill_vs_persistence") > 0)
        // In Fahrenheit, differences are scaled, not shifted.
        let imperial = try parseLines(await runCLI(["verify", "--json", "--units", "imperial"], environment: environment))
        let warmF = try #require(try imperial.first { try $0.string("provider") == "warm" && $0.string("lead") == "0-6h" })
        #expect(try abs(warmF.double("mae") - 4.5) < 1e-9 && warmF.string("unit") == "°F")

        let table = await runCLI(["verify", "Minsk"], environment: environment)
        #expect(table.code == 0)
        #expect(table.stdout.contains("Forecast verification: temperature (°C) at Minsk"))
        #expect(table.lines.contains { $0.hasPrefix("  close") && $0.contains("*0.5 (42)") })
        #expect(table.lines.contains { $0.hasPrefix("  warm") && $0.contains("2.5 (42)") && !$0.contains("*") })
    }

    @Test func withoutPairsItSaysWhyAndOtherPlacesHaveNone() async throws {
        let environment = try await seededEnvironment()
        let empty = await runCLI(["verify", "Tokyo"], environment: environment)
        #expect(empty.code == 0 && empty.stdout.contains("No forecast has an observation to be checked against yet"))
        #expect(await runCLI(["verify", "Tokyo", "--json"], environment: environment).stdout.isEmpty)
        #expect(await runCLI(["verify", "--field", "humidity", "--json"], environment: environment).stdout.isEmpty)
    }

    @Test func badFieldsAndPlacesAreClearErrors() async {
        expectOneLineError(await runCLI(["verify", "--field", "snow"]), code: .usage, containing: "--field")
        expectOneLineError(await runCLI(["verify", "Atlantisxyz"]), code: .badPlace, containing: "unknown place 'Atlantisxyz'")
    }
}
