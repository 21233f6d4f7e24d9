import FoundationEssentials
import IsobarCLI
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarHTTP
import IsobarRender
import IsobarStore
import IsobarTestKit
import OpenMeteo

/// The backfill path end to end, over HTTP on loopback: a server holds the history's past forecasts of three models (as
/// Open-Meteo's Previous Runs answer them) and the station's reports (as the IEM ASOS archive answers them); `isobar learn`
/// runs against it through the command line; then, each judged day, the models' forecast is asked through the engine with
/// the record `--weights auto` reads, the day's reports are archived, and the consensus is compared with the truth.
public enum BackfillSimulation {
    /// The three models of the one open-meteo entry, best first.
    public static let models = ["ecmwf_ifs025", "gfs_seamless", "icon_seamless"]
    /// The three models with unequal errors (σ 0.8, 1.2 and 2.0 °C), as sources of the entry `open-meteo`.
    public static let scenario = SimulationScenario("backfill: learn, 3 models σ 0.8/1.2/2.0", sources: zip(models, [0.8, 1.2, 2.0]).map {
        SimulatedSource("open-meteo/\($0)", sigma: $1)
    })
    /// The place asked, as `isobar learn` is given it (the simulated place's coordinates).
    static let placeArgument = "53.9,27.57"

    /// Runs the backfill path with its files (configuration, data, cache) in `directory` (which should be empty): the
    /// history's days are only ever learned through `isobar learn`, never archived live.
    public static func run(settings: SimulationSettings, directory: String) async throws -> SimulationOutcome {
        let days = settings.historyDays + settings.evaluationDays
        let start = Date(timeIntervalSince1970: 20_786 * 86_400)
        let world = SimulatedWorld(scenario, days: days, forecastHours: settings.forecastHours, seed: settings.seed, start: start)
        let past = PastRuns(world, scenario: scenario, hours: settings.historyDays * 24, seed: settings.seed)
        let today = SimulatedDay()
        today.value = settings.historyDays
        let server = try LoopbackServer { request in
            switch request.path {
            case "/v1/forecast" where request.query.contains("previous_day"): .init(past.body)
            case "/v1/forecast": .init(forecastBody(world, day: today.value))
            case "/cgi-bin/request/asos.py": .init(reports(world, before: today.value * 24), headers: [("Content-Type", "text/plain")])
            default: .init(status: 404, "{}")
            }
        }
        defer { server.stop() }
        let clock = ManualClock(start: world.time(settings.historyDays * 24))
        let learned = try await learn(server: server, directory: directory, days: settings.historyDays, clock: clock)

        let baseURL = RequestURL(string: server.baseURL)!
        var entry = OpenMeteoProvider.Configuration(id: "open-meteo", baseURL: baseURL, forecastDays: max(1, settings.forecastHours / 24), models: models)
        entry.previousRunsURL = baseURL
        let provider = OpenMeteoProvider(configuration: entry)
        let bindings = [ProviderBinding(provider: provider, transport: CurlTransport(userAgent: "isobar-simulation"))]
        let families = Dictionary(provider.sources.map { ($0.id, $0.family) }, uniquingKeysWith: { first, _ in first })
        let store = try await UserDataStore.open(directory: directory + "/data/isobar")
        var tally = Tally(scenario: scenario.name, sources: scenario.sources.map(\.id))
        tally.outcome.backfillPairs = learned.pairs
        for day in settings.historyDays..<days {
            today.value = day
            if day > settings.historyDays {
                clock.advance(by: 86_400)
                for hour in ((day - 1) * 24)..<(day * 24) {
                    var sample = WeatherSample(time: world.time(hour), periodHours: 0)
                    sample.temperatureC = world.truth[hour]
                    try await store.archiveObservation(sample, source: "metar", station: learned.station, place: Simulation.place)
                }
            }
            var learning = ConsensusLearning(biasCorrection: settings.biasCorrection)
            let (reports, plain) = try await Simulation.ask(bindings, clock: clock, learning: learning, sources: scenario.sources.count)
            learning.record = try await store.skillRecord(near: Simulation.place, now: clock.now(), settings: learning, families: families)
            let (_, consensus) = try await Simulation.ask(bindings, clock: clock, learning: learning, sources: scenario.sources.count)
            if day == settings.historyDays { tally.outcome.learnedOnFirstDay = consensus.weighting != .equalTooLittleHistory }
            tally.add(plain: plain, learned: consensus, world: world, day: day, hours: settings.forecastHours)
            if let skill = learning.record.fields[SkillKey(.temperature, .hours0to6)] {
                tally.outcome.corrections = skill.corrections
                tally.outcome.weights = skill.weights
            }
            for report in reports { try await store.archive(report) }
        }
        return tally.finish()
    }

    /// What `isobar learn` said it learned.
    struct Learned {
        var pairs: Int
        var station: String
    }

    /// Runs `isobar learn PLACE --days N --json` against `server` at the clock's time, with its data and cache in `directory`.
    static func learn(server: LoopbackServer, directory: String, days: Int, clock: ManualClock) async throws -> Learned {
        let configuration = directory + "/config.json"
        let text = """
            {"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)", "previous_runs_url": "\(server.baseURL)",
              "models": [\(models.map { "\"\($0)\"" }.joined(separator: ", "))]}],
             "observations": {"type": "metar", "archive_url": "\(server.baseURL)"}}
            """
        guard FileManager.default.createFile(atPath: configuration, contents: Data(text.utf8)) else {
            throw SimulationError("cannot write \(configuration)")
        }
        var environment = ["LANG": "C.UTF-8", "HOME": directory, "XDG_CONFIG_HOME": directory + "/config",
                           "XDG_DATA_HOME": directory + "/data", "XDG_CACHE_HOME": directory + "/cache"]
        if let data = DataDirectory.locate(environment: ProcessInfo.processInfo.environment) { environment["ISOBAR_DATA_DIR"] = data }
        let (output, errors) = (BufferedSink(), BufferedSink())
        let code = await IsobarCommandLine(environment: environment, output: output, errors: errors, time: clock,
                                           prompter: Prompter(isTerminal: false, readAnswer: { nil }))
            .run(["learn", placeArgument, "--days", String(days), "--config", configuration, "--timeout", "600", "--json"])
        guard code == 0, let line = output.text.split(separator: "\n").first else {
            throw SimulationError("isobar learn failed (\(code)): \(errors.text)")
        }
        let root = try JSONDocument(parsing: String(line)).rootValue
        return Learned(pairs: try root.int("pairs"), station: try root.string("station"))
    }

    /// The models' forecast issued at midnight of `day`, as Open-Meteo answers for several models: `temperature_2m_<model>`.
    static func forecastBody(_ world: SimulatedWorld, day: Int) -> String {
        let day = min(day, world.forecasts.count - 1)
        let hours = world.forecasts[day][0].indices
        let times = hours.map { "\"\(SimulatedWorld.localMinute(world.time(day * 24 + $0)))\"" }
        let units = models.map { "\"temperature_2m_\($0)\":\"°C\"" }.joined(separator: ",")
        let series = models.indices.map { index in
            "\"temperature_2m_\(models[index])\":[" + world.forecasts[day][index].map { JSONOutput.format(($0 * 100).rounded() / 100) }
                .joined(separator: ",") + "]"
        }
        return #"{"latitude":53.9,"longitude":27.57,"utc_offset_seconds":0,"timezone":"GMT","hourly_units":{"time":"iso8601","#
            + units + #"},"hourly":{"time":["# + times.joined(separator: ",") + "]," + series.joined(separator: ",") + "}}"
    }

    /// The station's reports of every hour before `hour`, as the ASOS archive answers: `station,valid,tmpf`, in °F.
    static func reports(_ world: SimulatedWorld, before hour: Int) -> String {
        var text = "station,valid,tmpf\n"
        for index in 0..<min(hour, world.truth.count) {
            let valid = String(SimulatedWorld.localMinute(world.time(index)).map { $0 == "T" ? " " : $0 })
            text += "UMMS,\(valid),\(JSONOutput.format(((world.truth[index] * 9 / 5 + 32) * 100).rounded() / 100))\n"
        }
        return text
    }
}

/// The history's past forecasts as Open-Meteo's Previous Runs API answers them: for every hour of the history, what each
/// model forecast 1 to 7 days before (the truth plus the model's bias and its own noise, drawn apart from the live forecasts).
struct PastRuns: Sendable {
    /// The answer's body.
    let body: String

    init(_ world: SimulatedWorld, scenario: SimulationScenario, hours: Int, seed: UInt64) {
        var random = SeededGenerator(seed: seed &* 7_919 &+ 104_729)
        let times = (0..<hours).map { "\"\(SimulatedWorld.localMinute(world.time($0)))\"" }
        var series: [String] = []
        for (index, source) in scenario.sources.enumerated() {
            for day in 1...7 {
                let values = (0..<hours).map { hour in
                    JSONOutput.format(((world.truth[hour] + source.bias + random.normal(sigma: source.sigma)) * 100).rounded() / 100)
                }
                series.append("\"temperature_2m_previous_day\(day)_\(BackfillSimulation.models[index])\":[\(values.joined(separator: ","))]")
            }
        }
        body = #"{"latitude":53.9,"longitude":27.57,"utc_offset_seconds":0,"timezone":"GMT","hourly":{"time":["#
            + times.joined(separator: ",") + "]," + series.joined(separator: ",") + "}}"
    }
}
