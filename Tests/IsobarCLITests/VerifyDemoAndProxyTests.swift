import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarStore
import IsobarTestKit
import Testing

@Suite struct VerifyDemoAndProxyTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    @Test func theDemoShipsHistoryWithSeveralProvidersAcrossLeadTimes() async throws {
        let data = temporaryDirectory("verify-demo-data")
        let environment = ["XDG_DATA_HOME": data]
        let lines = try parseLines(await runCLI(["verify", "Minsk", "--demo", "--json"], environment: environment))
        let temperature = try lines.filter { try $0.string("field") == "temperature" }
        let providers = try Set(temperature.map { try $0.string("provider") })
        #expect(providers.count >= 3)
        #expect(try Set(temperature.map { try $0.string("lead") }) == Set(LeadBucketNames.all))
        #expect(try temperature.allSatisfy { line in
            let basis = try line.string("basis"), pairs = try line.int("pairs")
            return basis == "metar" && pairs >= 30
        })
        // MAE grows with lead time for every provider that forecasts far enough.
        for provider in providers {
            let maes = try LeadBucketNames.all.compactMap { lead in
                try temperature.first { try $0.string("provider") == provider && $0.string("lead") == lead }?.double("mae")
            }
            #expect(maes.count >= 3 && maes.first! < maes.last!, "\(provider): \(maes)")
        }
        let brier = try lines.filter { try $0.string("field") == "precipitation_probability" }
        #expect(brier.count == temperature.count)
        #expect(try brier.allSatisfy { line in
            let score = try line.double("brier"), maeIsNull = try line.member("mae").isNull, unit = try line.string("unit")
            return score > 0 && score < 0.3 && maeIsNull && unit == "%"
        })
        let table = await runCLI(["verify", "Minsk", "--demo"], environment: environment)
        #expect(table.code == 0 && table.stdout.contains("in the recorded demo history") && table.stdout.contains("Against METAR reports (UMMS)"))
        #expect(table.lines.filter { $0.contains("*") && $0.hasPrefix("  ") }.count >= 3)
        // The user's archive is neither read nor written.
        #expect(!FileManager.default.fileExists(atPath: data + "/isobar"))
        // Another place has no recorded history.
        #expect(await runCLI(["verify", "Tokyo", "--demo"], environment: environment).stdout.contains("No forecast has an observation"))
    }

    @Test func proxiesAreLabelledAndScoredApart() async throws {
        let data = temporaryDirectory("verify-proxy-data")
        let store = try await UserDataStore.open(directory: data + "/isobar")
        let minsk = Place(name: "Minsk", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!)
        let end = Date(timeIntervalSince1970: 1_795_856_400 + 3 * 3_600)
        for hour in 0..<6 {
            var observed = WeatherSample(time: end.addingTimeInterval(Double(hour - 6) * 3_600), periodHours: 1)
            observed.temperatureC = 0
            observed.condition = hour < 3 ? .snow : .cloudy
            try await store.archiveObservation(observed, source: hour % 2 == 0 ? "metar" : "proxy", station: hour % 2 == 0 ? "UMMS" : "open-meteo",
                                               place: minsk)
        }
        let steps = (0..<6).map { hour -> WeatherSample in
            var step = WeatherSample(time: end.addingTimeInterval(Double(hour - 6) * 3_600), periodHours: 1)
            step.temperatureC = 1
            step.precipitationProbabilityPercent = 80
            return step
        }
        try await store.archive(WeatherReport(providerID: "open-meteo", place: minsk, fetchedAt: end.addingTimeInterval(-6 * 3_600), hourly: steps))
        let environment = ["XDG_DATA_HOME": data]
        let lines = try parseLines(await runCLI(["verify", "Minsk", "--json"], environment: environment))
        let bases = try lines.map { try "\($0.string("field")) \($0.string("basis")) \($0.int("pairs"))" }
        #expect(bases == ["temperature metar 3", "temperature proxy:open-meteo 3",
                          "precipitation_probability metar 3", "precipitation_probability proxy:open-meteo 3"])
        // Snow at hours 0 and 2 of the station's three reports, cloud at 4: about ((0.2)² × 2 + (0.8)²) ÷ 3 = 0.24.
        let metarBrier = try #require(lines.first { try $0.string("basis") == "metar" && $0.string("field") == "precipitation_probability" })
        #expect(try abs(metarBrier.double("brier") - 0.24) < 0.01)  // recent pairs weigh a little more
        let table = await runCLI(["verify", "Minsk"], environment: environment)
        #expect(table.stdout.contains("Against METAR reports (UMMS), 3 observation(s):"))
        #expect(table.stdout.contains("Against open-meteo's own current values, a proxy where no station reports (not an observation), 3 of them:"))
        let csv = await runCLI(["verify", "Minsk", "--format", "csv"], environment: environment)
        #expect(csv.lines.first == "place,basis,provider,field,lead,pairs,weight,mae_c,bias_c,rmse_c,hit_rate,skill_vs_persistence,brier,brier_skill,base_rate,skill_basis,coverage_80")
        #expect(csv.lines.contains { $0.hasPrefix("\"Minsk, Minsk City, BY\",proxy:open-meteo,open-meteo,temperature,0-6h,3,") })
    }

    @Test func withNoStationReportingAProvidersCurrentIsArchivedAsAProxy() async throws {
        let server = try providerServer()
        let metar = try LoopbackServer { _ in .init("[]") }
        let config = try temporaryConfiguration("""
        {"observations": {"type": "metar", "base_url": "\(metar.baseURL)"},
         "providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)"}]}
        """)
        // At 09:30 UTC, half an hour after the recording's current values (a current three hours old would be no proxy).
        let environment = ["XDG_DATA_HOME": temporaryDirectory("proxy-observed"), "XDG_CACHE_HOME": temporaryDirectory("proxy-observed-cache"),
                           "ISOBAR_TIME_SHIFT": String(Int(recordingTimeShift)! - 9_000)]
        let run = await runCLI(["now", "Minsk", "--config", config], environment: environment, transport: curl)
        #expect(run.code == 0, "\(run.stderr)")
        let lines = try parseLines(await runCLI(["archive", "export", "--config", config], environment: environment))
        let observed = try #require(lines.first { try $0.string("type") == "archived_observation" })
        #expect(try observed.string("observed_by") == "proxy" && observed.string("station") == "open-meteo")
        #expect(try observed.string("observed_at") == "2026-11-28T09:00:00+00:00" && observed.member("values").double("temperature") == -0.9)
        #expect(!metar.requests.isEmpty)
        // Three hours later the same answer's current is too old to stand in for an observation.
        let later = ["XDG_DATA_HOME": temporaryDirectory("proxy-late"), "XDG_CACHE_HOME": temporaryDirectory("proxy-late-cache")]
        #expect(await runCLI(["now", "Minsk", "--config", config], environment: later, transport: curl).code == 0)
        #expect(try parseLines(await runCLI(["archive", "export", "--config", config], environment: later))
            .allSatisfy { try $0.string("type") != "archived_observation" })
    }

    @Test func withoutObservationsConfiguredNoProxyIsKept() async throws {
        let server = try providerServer()
        let config = try temporaryConfiguration(#"{"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\#(server.baseURL)"}]}"#)
        let environment = ["XDG_DATA_HOME": temporaryDirectory("proxy-none"), "XDG_CACHE_HOME": temporaryDirectory("proxy-none-cache")]
        #expect(await runCLI(["now", "Minsk", "--config", config], environment: environment, transport: curl).code == 0)
        let lines = try parseLines(await runCLI(["archive", "export", "--config", config], environment: environment))
        #expect(try !lines.contains { try $0.string("type") == "archived_observation" })
    }

    @Test func damagedOrNonMetricHistoryIsAConfigurationErrorNamingTheLine() async throws {
        let good = #"{"schema":1,"type":"archived_observation","observed_by":"metar","station":"UMMS","latitude":53.9,"longitude":27.57,"observed_at":"2026-11-28T09:00:00+00:00","condition":null,"values":{"temperature":-1}}"#
        for (bad, message) in [("{\"type\":", "minsk.jsonl line 2: not an archive export line"),
                               (good.replacingOccurrences(of: #""values""#, with: #""units":{"temperature":"°F"},"values""#),
                                "minsk.jsonl line 2: temperature is in °F; only metric exports can be read"),
                               (good.replacingOccurrences(of: "2026-11-28T09", with: "yesterday"), "minsk.jsonl line 2: observed_at is not an ISO-8601 instant")] {
            let data = temporaryDirectory("verify-bad-history")
            try FileManager.default.createDirectory(atPath: data + "/demo-history", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: dataDirectory + "/demo.json", toPath: data + "/demo.json")
            try Data((good + "\n" + bad + "\n").utf8).write(to: URL(fileURLWithPath: data + "/demo-history/minsk.jsonl"))
            expectOneLineError(await runCLI(["verify", "--demo"], environment: ["ISOBAR_DATA_DIR": data]), code: .configuration, containing: message)
        }
        let empty = temporaryDirectory("verify-no-history")
        try FileManager.default.copyItem(atPath: dataDirectory + "/demo.json", toPath: empty + "/demo.json")
        expectOneLineError(await runCLI(["verify", "--demo"], environment: ["ISOBAR_DATA_DIR": empty]), code: .configuration,
                           containing: "cannot read the recorded history")
    }

    @Test func chartsAreForPeopleAndTheDemoHasNoConfigFile() async {
        expectOneLineError(await runCLI(["verify", "--demo", "--chart", "--json"]), code: .usage, containing: "--chart")
        expectOneLineError(await runCLI(["verify", "--demo", "--ascii"]), code: .usage, containing: "--ascii")
        expectOneLineError(await runCLI(["verify", "--demo", "--format", "xml"]), code: .usage, containing: "--format")
        expectOneLineError(await runCLI(["verify", "--demo", "--config", "/nonexistent.json"]), code: .usage, containing: "--demo")
    }
}

/// The lead buckets as written.
enum LeadBucketNames {
    static let all = ["0-6h", "6-24h", "1-3d", "3-7d", "7-16d"]
}
