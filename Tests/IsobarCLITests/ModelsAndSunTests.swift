import Foundation
import IsobarCLI
import IsobarCore
import Testing

@Suite("Open-Meteo models and the sun in the bundled recordings")
struct ModelsAndSunTests {
    /// The demo's providers with the Open-Meteo entry asking for three models in its one request.
    func modelsConfiguration() throws -> String {
        try temporaryConfiguration("""
        {"providers": [
          {"id": "openweathermap", "type": "openweathermap", "replay": "\(dataDirectory)/cassettes/openweathermap"},
          {"id": "open-meteo", "type": "open-meteo", "replay": "\(dataDirectory)/cassettes/open-meteo",
           "models": ["ecmwf_ifs025", "gfs_seamless", "icon_seamless"]},
          {"id": "met-norway", "type": "met-norway", "replay": "\(dataDirectory)/cassettes/met-norway"}
        ]}
        """)
    }

    @Test("each model is a column and a source of family open-meteo weighing one in all")
    func modelsAreSources() async throws {
        let config = try modelsConfiguration()
        let table = await runCLI(["compare", "Minsk", "--config", config])
        #expect(table.code == 0)
        #expect(table.stdout.contains("Open-Meteo ECMWF IFS") && table.stdout.contains("Open-Meteo GFS") && table.stdout.contains("Open-Meteo ICON"))
        let lines = try parseLines(await runCLI(["compare", "Minsk", "--config", config, "--format", "jsonl"]))
        let consensus = try #require(lines.last)
        #expect(try consensus.member("providers").stringsOrNulls()
            == ["openweathermap", "open-meteo/ecmwf_ifs025", "open-meteo/gfs_seamless", "open-meteo/icon_seamless", "met-norway"])
        var familyWeight = 0.0
        for outcome in try consensus.member("outcomes").elements() where try outcome.string("provider").hasPrefix("open-meteo/") {
            #expect(try outcome.string("family") == "open-meteo")
            familyWeight += try outcome.double("merge_weight")
        }
        #expect(abs(familyWeight - 1) < 0.01)
    }

    @Test("the merged sunrise and sunset are within 2 minutes of every provider's, in every bundled place")
    func sunWithinTwoMinutes() async throws {
        let config = try modelsConfiguration()
        for place in ["Minsk", "London", "Tokyo", "New York", "São Paulo", "Moscow"] {
            let lines = try parseLines(await runCLI(["forecast", place, "--config", config, "--days", "2", "--format", "jsonl"]))
            let day = try #require(try lines.last?.member("daily").elements().first)
            for name in ["sunrise", "sunset"] {
                let merged = try day.member("merged").member(name)
                let value = try #require(CivilTime.instant(iso: try day.string(name)), "\(place) \(name)")
                let inputs = try merged.member("inputs").elements()
                #expect(inputs.count >= 3, "\(place) \(name): \(inputs.count) providers")
                #expect(try inputs.map { try $0.string("provider") }.contains("openweathermap"))
                for input in inputs {
                    let given = try #require(CivilTime.instant(iso: try input.string("value")))
                    let provider = try input.string("provider")
                    #expect(abs(given.timeIntervalSince(value)) <= 120, "\(place) \(name) from \(provider)")
                }
            }
            #expect(try day.double("daylight_duration") > 0)
            #expect(try !day.string("moon_phase_name").isEmpty)
        }
    }
}
