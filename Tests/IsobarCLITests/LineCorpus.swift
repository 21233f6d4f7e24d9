import Foundation
import IsobarCore
import IsobarHTTP
import IsobarStore

/// Every kind of JSON line Isobar writes, gathered by running each command that writes them: the golden runs' files, and
/// the other commands (places, cities, home, search, providers, cache, a provider that fails) run here in one shared
/// data and cache folder.
enum LineCorpus {
    /// One command's output: its command line and its JSON lines.
    struct Run: Sendable {
        let command: String
        let lines: [String]
    }

    /// The line types batch writes; no other command does.
    static let batchOnlyTypes: Set<String> = ["input_error", "summary"]

    /// The golden files' lines.
    static func goldenRuns() throws -> [Run] {
        try GoldenCase.all.filter { $0.file.hasSuffix(".jsonl") }.map { golden in
            let text = try String(contentsOfFile: packageRoot + "/Tests/IsobarCLITests/Golden/" + golden.file, encoding: .utf8)
            return Run(command: golden.testDescription, lines: text.split(separator: "\n").map(String.init))
        }
    }

    /// Every command that writes JSON lines, run once per test process and shared by the tests that read them.
    static func all() async throws -> [Run] { try await shared.value }

    private static let shared = Task { try await run() }

    /// Every command that writes JSON lines, run once each (plus the goldens).
    private static func run() async throws -> [Run] {
        let environment = ["XDG_DATA_HOME": temporaryDirectory("corpus-data"), "XDG_CACHE_HOME": temporaryDirectory("corpus-cache")]
        var commands: [[String]] = [
            ["Minsk", "--demo"], ["forecast", "Tokyo", "--demo", "--days", "3"], ["compare", "Minsk", "--demo", "--units", "imperial"],
            // Learned weights with too little history: the v1 values with intervals, labelled.
            ["forecast", "Minsk", "--demo", "--days", "2", "--hourly", "--weights", "auto", "--bias-correction"],
            // No recording of Paris: every provider fails.
            ["now", "Paris", "--demo"], ["air", "Minsk", "--demo", "--hourly"],
            // The warnings in force in the New York recording.
            ["alerts", "New York", "--demo"],
            ["cities", "--demo"], ["cities", "add", "Tokyo", "--demo"], ["cities", "add", "Tokyo", "--demo"],
            ["cities", "move", "3", "1", "--demo"], ["cities", "remove", "1", "--demo"],
            ["home", "set", "Minsk", "--demo"], ["home", "--demo"], ["home", "unset", "--demo"], ["home", "unset", "--demo"],
            ["search", "Paris"], ["search", "Sprngfield", "--limit", "3"],
            ["providers", "--demo"], ["providers", "reset"], ["providers", "check", "nws", "--demo"],
            // Outside the coverage it declares: a failing rule.
            ["providers", "check", "nws", "Minsk", "--demo"],
            ["cache", "stats"], ["cache", "prune"], ["cache", "clear"],
            ["verify", "Minsk"], ["verify", "Minsk", "--demo"], ["archive", "stats"], ["archive", "export"],
            ["archive", "import", dataDirectory + "/demo-history/minsk.jsonl"], ["archive", "prune"], ["archive", "clear"],
        ]
        try await seedArchive(environment["XDG_DATA_HOME"]! + "/isobar")
        // A plug-in program in the user's plug-in folder, listed, then enabled and disabled in a configuration of its own.
        let plugins = environment["XDG_DATA_HOME"]! + "/isobar/providers"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: packageRoot + "/Providers/examples/shell/isobar-provider-open-meteo-sh",
                                         toPath: plugins + "/isobar-provider-corpus")
        let pluginConfig = try temporaryConfiguration(#"{"providers": []}"#)
        commands += [["providers", "--available"], ["providers", "enable", "corpus", "--config", pluginConfig],
                     ["providers", "disable", "corpus", "--config", pluginConfig]]
        // doctor over a replayed provider (no network), setup into a new file, and config reading and changing it.
        let replayed = try temporaryConfiguration(#"{"providers": [{"id": "open-meteo", "type": "open-meteo", "replay": "\#(dataDirectory)/cassettes/open-meteo"}]}"#)
        let written = temporaryDirectory("corpus-setup") + "/config.json"
        commands += [["doctor", "--config", replayed], ["setup", "--yes", "--contact", "me@example.com", "--config", written],
                     ["config", "list", "--config", written], ["config", "set", "units", "imperial", "--config", written],
                     ["config", "path", "--config", written]]
        var runs = try goldenRuns()
        for arguments in commands {
            let run = await runCLI(arguments + ["--json"], environment: environment)
            runs.append(Run(command: "isobar " + (arguments + ["--json"]).joined(separator: " "), lines: run.lines))
        }
        // learn, against past forecasts and reports served on this machine.
        let server = try PastWorld.server()
        let learned = await runCLI(["learn", "Minsk", "--config", try PastWorld.configuration(server), "--json", "--timeout", "600"],
                                   environment: PastWorld.environment(), transport: { CurlTransport(userAgent: "isobar/test") })
        runs.append(Run(command: "isobar learn Minsk --json", lines: learned.lines))
        return runs
    }

    /// One forecast step and one observation in the archive, as a live run and an observation source would leave them.
    private static func seedArchive(_ directory: String) async throws {
        let store = try await UserDataStore.open(directory: directory)
        let minsk = Place(name: "Minsk", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!)
        let now = Date(timeIntervalSince1970: 1_795_856_400 + 3 * 3_600)
        var step = WeatherSample(time: now.addingTimeInterval(3_600), periodHours: 1)
        step.temperatureC = -0.4
        step.windSpeedMS = 3.1
        step.condition = .snow
        try await store.archive(WeatherReport(providerID: "open-meteo", place: minsk, fetchedAt: now, hourly: [step]))
        for time in [now, step.time] {
            var observed = WeatherSample(time: time, periodHours: 1)
            observed.temperatureC = -1
            try await store.archiveObservation(observed, source: "metar", station: "UMMS", place: minsk)
        }
    }

    /// Lines batch will write, in the shapes the schema gives them.
    static let batchLines = [
        #"{"schema":1,"type":"input_error","input_line":3,"id":"depot-7","input":"Atlantis","error":{"code":"unknown_place","message":"no place called Atlantis"}}"#,
        #"{"schema":1,"type":"input_error","input_line":4,"input":"{\"lat\":","error":{"code":"invalid_json","message":"line 4 is not JSON"}}"#,
        #"{"schema":1,"type":"summary","places":3,"ok":1,"partial":1,"failed":1,"input_errors":2,"requests":6,"cache_hits":2,"wall_s":1.25,"interrupted":false}"#,
    ]

    /// The schema file.
    static let schemaPath = packageRoot + "/schemas/isobar-lines-v1.schema.json"

    /// The line types the schema names.
    static func schemaTypes() throws -> Set<String> {
        let schema = try JSONDocument(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: schemaPath)))).rootValue
        return Set(try schema.member("properties").member("type").member("enum").stringsOrNulls().compactMap { $0 })
    }
}

/// Finds Python 3 on the PATH and the reader packages it has, once per test process, waiting on threads of their own
/// (never blocking the test pool: the checks start Python).
enum Python {
    /// The packages the tests look for.
    static let packages = ["jsonschema", "duckdb", "pandas"]

    private static let found = Task { await find() }

    /// The interpreter, resolved through any shim, or nil when there is none.
    static func executable() async -> String? { await found.value.executable }

    /// True when the interpreter can import `package`.
    static func has(_ package: String) async -> Bool { await found.value.packages.contains(package) }

    /// Runs a reader script from Tests/IsobarCLITests/Readers.
    static func script(_ name: String, _ arguments: [String]) async throws -> CLIRun {
        guard let executable = await executable() else { throw CocoaError(.executableNotLoadable) }
        return try await runExactly(executable, [packageRoot + "/Tests/IsobarCLITests/Readers/" + name] + arguments,
                                    environment: ProcessInfo.processInfo.environment)
    }

    private static func find() async -> (executable: String?, packages: Set<String>) {
        let environment = ProcessInfo.processInfo.environment
        let probe = "import sys, importlib.util; print(sys.executable); print(' '.join(p for p in sys.argv[1:] if importlib.util.find_spec(p)))"
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/python3"
            guard FileManager.default.isExecutableFile(atPath: candidate),
                  let run = try? await runExactly(candidate, ["-c", probe] + packages, environment: environment), run.code == 0 else { continue }
            let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let resolved = lines.first, !resolved.isEmpty else { continue }
            return (resolved, Set((lines.count > 1 ? lines[1] : "").split(separator: " ").map(String.init)))
        }
        return (nil, [])
    }
}
