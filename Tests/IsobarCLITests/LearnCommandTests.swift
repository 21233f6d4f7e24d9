import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

/// Thirty days of past forecasts of three models with unequal errors, and the station's reports, served on loopback.
struct PastWorld {
    static let models = ["ecmwf_ifs025", "gfs_seamless", "icon_seamless"]
    /// Each model's error, °C (ECMWF the best).
    static let sigmas = [0.6, 1.1, 1.8]
    /// Midnight UTC of today: the past ends and the forecast begins here.
    let today = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)

    func truth(_ hour: Int) -> Double { 4 + 6 * sin(2 * .pi * Double((hour % 24 + 24) % 24 - 9) / 24) + 2 * sin(Double(hour) / 37) }

    static func minute(_ date: Date) -> String {
        let text = ISO8601DateFormatter().string(from: date)
        return String(text.prefix(16))
    }

    /// The Previous Runs answer for `days` back: every hour's `_previous_dayN` of every model.
    func previousRuns(days: Int) -> String {
        var random = SeededGenerator(seed: 11)
        let hours = Array(-days * 24..<0)
        var series: [String] = []
        for (index, model) in Self.models.enumerated() {
            for day in 1...7 {
                let values = hours.map { hour in JSONOutput.format(((truth(hour) + random.normal(sigma: Self.sigmas[index])) * 10).rounded() / 10) }
                series.append("\"temperature_2m_previous_day\(day)_\(model)\":[\(values.joined(separator: ","))]")
            }
        }
        let times = hours.map { "\"\(Self.minute(today.addingTimeInterval(Double($0) * 3_600)))\"" }
        return #"{"latitude":53.9,"longitude":27.57,"utc_offset_seconds":0,"timezone":"GMT","hourly":{"time":["#
            + times.joined(separator: ",") + "]," + series.joined(separator: ",") + "}}"
    }

    /// The forecast answer: 48 hours from today's midnight, every model.
    func forecast() -> String {
        var random = SeededGenerator(seed: 12)
        let hours = Array(0..<48)
        let times = hours.map { "\"\(Self.minute(today.addingTimeInterval(Double($0) * 3_600)))\"" }
        let units = Self.models.map { "\"temperature_2m_\($0)\":\"°C\"" }.joined(separator: ",")
        let series = Self.models.indices.map { index in
            "\"temperature_2m_\(Self.models[index])\":["
                + hours.map { JSONOutput.format(((truth($0) + random.normal(sigma: Self.sigmas[index])) * 10).rounded() / 10) }.joined(separator: ",") + "]"
        }
        return #"{"latitude":53.9,"longitude":27.57,"utc_offset_seconds":0,"timezone":"GMT","hourly_units":{"time":"iso8601","#
            + units + #"},"hourly":{"time":["# + times.joined(separator: ",") + "]," + series.joined(separator: ",") + "}}"
    }

    /// The station's reports, every hour on the hour, in °F.
    func reports(days: Int) -> String {
        var text = "station,valid,tmpf\n"
        for hour in (-days * 24)..<0 {
            let valid = Self.minute(today.addingTimeInterval(Double(hour) * 3_600)).replacingOccurrences(of: "T", with: " ")
            text += "UMMS,\(valid),\(JSONOutput.format(((truth(hour) * 9 / 5 + 32) * 100).rounded() / 100))\n"
        }
        return text
    }
}

extension PastWorld {
    /// A server for both sources: past forecasts when `previous_day` is asked, else the forecast, and the station's reports.
    static func server(previousStatus: Int = 200) throws -> LoopbackServer {
        let world = PastWorld()
        let (previous, forecast, reports) = (world.previousRuns(days: 37), world.forecast(), world.reports(days: 40))
        return try LoopbackServer { request in
            switch request.path {
            case "/v1/forecast" where request.query.contains("previous_day"):
                previousStatus == 200 ? .init(previous) : .init(status: previousStatus, #"{"error":true,"reason":"busy"}"#)
            case "/v1/forecast": .init(forecast)
            case "/cgi-bin/request/asos.py": .init(reports, headers: [("Content-Type", "text/plain")])
            default: .init(status: 404, "{}")
            }
        }
    }

    /// A configuration of one open-meteo entry with three models and a metar observations entry, all at `server`.
    static func configuration(_ server: LoopbackServer, observations: Bool = true) throws -> String {
        let observing = observations ? #", "observations": {"type": "metar", "archive_url": "\#(server.baseURL)"}"# : ""
        return try temporaryConfiguration("""
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)", "previous_runs_url": "\(server.baseURL)",
           "models": ["ecmwf_ifs025", "gfs_seamless", "icon_seamless"]}]\(observing)}
        """)
    }

    /// A fresh data and cache folder, and the clock of this machine (the served days end today).
    static func environment() -> [String: String] {
        ["XDG_DATA_HOME": temporaryDirectory("learn-data"), "XDG_CACHE_HOME": temporaryDirectory("learn-cache"), "ISOBAR_TIME_SHIFT": "0"]
    }
}

@Suite(.tags(.realTime)) struct LearnCommandTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }
    func server(previousStatus: Int = 200) throws -> LoopbackServer { try PastWorld.server(previousStatus: previousStatus) }
    func configuration(_ server: LoopbackServer, observations: Bool = true) throws -> String {
        try PastWorld.configuration(server, observations: observations)
    }
    func environment() -> [String: String] { PastWorld.environment() }

    @Test func pastForecastsAndReportsMakeLearnedWeightsFromTheFirstDay() async throws {
        let server = try server()
        let config = try configuration(server)
        let environment = environment()
        let run = await runCLI(["learn", "Minsk", "--config", config, "--json", "--timeout", "600"], environment: environment, transport: curl)
        #expect(run.code == 0, "\(run.stderr)")
        let line = try #require(try parseLines(run).first)
        #expect(try line.string("type") == "learned")
        #expect(try line.member("learned_from").stringsOrNulls() == PastWorld.models.map { "open-meteo/\($0)" })
        #expect(try line.int("pairs") >= 3 * 7 * 24 * 25)
        #expect(try line.string("basis") == "backfill")
        let forecast = await runCLI(["forecast", "Minsk", "--hourly", "--days", "2", "--weights", "auto", "--config", config, "--json"],
                                    environment: environment, transport: curl)
        #expect(forecast.code == 0, "\(forecast.stderr)")
        let consensus = try #require(try parseLines(forecast).last)
        #expect(try consensus.string("weighting") == "learned")
        // Each source says where its record came from.
        let bases = try consensus.member("learned_basis").elements().map { (try $0.string("provider"), try $0.string("basis")) }
        #expect(bases.map(\.0) == PastWorld.models.map { "open-meteo/\($0)" })
        #expect(bases.allSatisfy { $0.1 == "backfill" }, "\(bases)")
        // verify's scores say it too, with the out-of-sample coverage of their lead.
        let scores = try parseLines(await runCLI(["verify", "Minsk", "--config", config, "--json"], environment: environment))
        let errors = try scores.filter { try $0.string("field") == "temperature" }
        #expect(!errors.isEmpty && errors.allSatisfy { (try? $0.string("skill_basis")) == "backfill" })
        #expect(try errors.contains { try $0.string("lead") == "1-3d" && $0.member("coverage_80").kind == .number })
        // verify says where each source's record came from, and how often the learned interval held the truth by lead.
        let verify = await runCLI(["verify", "Minsk", "--config", config], environment: environment)
        #expect(verify.code == 0, "\(verify.stderr)")
        #expect(verify.stdout.contains("Learned from past forecasts (isobar learn, basis backfill): "
            + PastWorld.models.map { "open-meteo/\($0)" }.joined(separator: ", ")))
        #expect(verify.stdout.contains("80 % interval held the truth (scored out of sample): 1-3d "))
        // A second run finds nothing new to learn.
        let again = try #require(try parseLines(await runCLI(["learn", "Minsk", "--config", config, "--json", "--timeout", "600"], environment: environment,
                                                            transport: curl)).first)
        #expect(try again.int("pairs") == 0)
    }

    @Test func badInputIsAOneLineError() async throws {
        let server = try server()
        let config = try configuration(server)
        expectOneLineError(await runCLI(["learn", "Minsk", "--config", config, "--days", "0"]), code: .usage, containing: "--days")
        expectOneLineError(await runCLI(["learn", "Minsk", "--config", config, "--days", "93"]), code: .usage, containing: "1 to 92")
        expectOneLineError(await runCLI(["learn", "Nowhere-At-All", "--config", config]), code: .badPlace, containing: "unknown place")
        expectOneLineError(await runCLI(["learn", "Minsk", "--config", try configuration(server, observations: false)]),
                           code: .configuration, containing: "observations")
    }

    @Test func aSourceThatFailsIsNamedAndNothingIsLearned() async throws {
        let server = try server(previousStatus: 503)
        let run = await runCLI(["learn", "Minsk", "--config", try configuration(server), "--timeout", "600"], environment: environment(), transport: curl)
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        #expect(run.stderr.contains("open-meteo: no past forecasts"))
        #expect(run.stdout.isEmpty)
    }

    /// The request for past forecasts counts in the source's rate-limit windows, as its weather calls do: a forecast
    /// (13.7 weighted calls) leaves less than one of a limit of 14 a day, so learning is refused without asking; in a
    /// fresh cache it is learned.
    @Test func pastForecastsTakeAPermitFromTheSourcesLimits() async throws {
        let server = try server()
        let config = try temporaryConfiguration("""
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)", "previous_runs_url": "\(server.baseURL)",
           "models": ["ecmwf_ifs025", "gfs_seamless", "icon_seamless"], "rate_limits": [{"limit": 14, "per_s": 86400}]}],
         "observations": {"type": "metar", "archive_url": "\(server.baseURL)"}}
        """)
        let environment = environment()
        let forecast = await runCLI(["forecast", "Minsk", "--config", config], environment: environment, transport: curl)
        #expect(forecast.code == 0, "\(forecast.stderr)")
        let refused = await runCLI(["learn", "Minsk", "--config", config, "--timeout", "2"], environment: environment, transport: curl)
        #expect(refused.code == ExitCode.noneAnswered.rawValue)
        #expect(refused.stderr.contains("open-meteo: no past forecasts"), "\(refused.stderr)")
        #expect(server.requests.filter { $0.query.contains("previous_day") }.isEmpty)
        let fresh = await runCLI(["learn", "Minsk", "--config", config, "--timeout", "600"], environment: self.environment(), transport: curl)
        #expect(fresh.code == 0, "\(fresh.stderr)")
        #expect(server.requests.filter { $0.query.contains("previous_day") }.count == 1)
    }
}
