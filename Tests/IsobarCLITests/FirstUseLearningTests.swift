import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarRender
import IsobarTestKit
import Synchronization
import Testing

/// The first time learned weights meet a place with nothing learned near it: asked on a terminal, named in one line
/// elsewhere, learned only with consent (or `learn_on_first_use: always`), never asked again once learned.
@Suite(.tags(.realTime)) struct FirstUseLearningTests {
    static let forecast = ["forecast", "Minsk", "--hourly", "--days", "2", "--weights", "auto", "--timeout", "600", "--json"]
    static let question = "Nothing is learned near Minsk yet. Learn from the past 30 days now"

    /// A configuration of three models and a metar observations entry at `server`, with `extra` top-level members.
    func configuration(_ server: LoopbackServer, extra: String = "", observations: Bool = true) throws -> String {
        let observing = observations ? #", "observations": {"type": "metar", "archive_url": "\#(server.baseURL)"}"# : ""
        return try temporaryConfiguration("""
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)", "previous_runs_url": "\(server.baseURL)",
           "models": ["ecmwf_ifs025", "gfs_seamless", "icon_seamless"]}]\(observing)\(extra)}
        """)
    }

    /// Runs a command on a terminal (or not) that answers `answers` in turn, over the network to the loopback server.
    func run(_ arguments: [String], terminal: Bool, answers: [String] = [], environment: [String: String]) async -> CLIRun {
        let queue = Mutex(answers)
        let prompter = Prompter(isTerminal: terminal) { queue.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
        let (output, errors) = (BufferedSink(), BufferedSink())
        var all = ["LANG": "C.UTF-8", "ISOBAR_DATA_DIR": dataDirectory, "HOME": "/nonexistent-home", "XDG_CONFIG_HOME": "/nonexistent-config"]
        all.merge(environment) { $1 }
        let code = await IsobarCommandLine(environment: all, output: output, errors: errors,
                                           liveTransport: { CurlTransport(userAgent: "isobar/test") }, prompter: prompter).run(arguments)
        return CLIRun(code: code, stdout: output.text, stderr: errors.text)
    }

    /// The requests for past forecasts and for station reports the server received.
    func pastRequests(_ server: LoopbackServer) -> Int {
        server.requests.filter { $0.query.contains("previous_day") || $0.path == "/cgi-bin/request/asos.py" }.count
    }

    func weighting(_ run: CLIRun) throws -> String { try #require(try parseLines(run).last).string("weighting") }

    @Test func withoutATerminalOneLineNamesTheCommandAndNothingIsFetched() async throws {
        let server = try PastWorld.server()
        let config = try configuration(server)
        let run = await run(Self.forecast + ["--config", config], terminal: false, environment: PastWorld.environment())
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stderr.contains("isobar: note: nothing is learned near Minsk yet, so the weights are equal; `isobar learn Minsk` learns the past 30 days at once\n"))
        #expect(!run.stderr.contains(Self.question))
        #expect(pastRequests(server) == 0)
        #expect(try weighting(run) == "equal (too little history)")
        let bases = try #require(try parseLines(run).last).member("learned_basis").elements()
        let noneLearned = try bases.allSatisfy { try $0.string("basis") == "none" }
        #expect(bases.count == 3 && noneLearned)
    }

    @Test func onATerminalNoFetchesNothing() async throws {
        let server = try PastWorld.server()
        let run = await run(Self.forecast + ["--config", try configuration(server)], terminal: true, answers: ["n"],
                            environment: PastWorld.environment())
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stderr.contains(Self.question))
        #expect(pastRequests(server) == 0)
        #expect(try weighting(run) == "equal (too little history)")
    }

    @Test func onATerminalYesLearnsTheFirstForecastAndIsNotAskedAgain() async throws {
        let server = try PastWorld.server()
        let config = try configuration(server)
        let environment = PastWorld.environment()
        let run = await run(Self.forecast + ["--config", config], terminal: true, answers: [" Yes "], environment: environment)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stderr.contains(Self.question))
        #expect(run.stderr.contains("isobar: learned "))
        #expect(pastRequests(server) == 2)
        #expect(try weighting(run) == "learned")
        #expect(try parseLines(run).allSatisfy { try $0.string("type") != "learned" }, "the forecast's lines stay the forecast's")
        let again = await self.run(Self.forecast + ["--config", config], terminal: true, answers: ["y"], environment: environment)
        #expect(!again.stderr.contains(Self.question))
        #expect(pastRequests(server) == 2)
        #expect(try weighting(again) == "learned")
    }

    @Test func alwaysLearnsWithoutAsking() async throws {
        let server = try PastWorld.server()
        let config = try configuration(server, extra: #", "learn_on_first_use": "always""#)
        let run = await run(Self.forecast + ["--config", config], terminal: false, environment: PastWorld.environment())
        #expect(run.code == 0, "\(run.stderr)")
        #expect(!run.stderr.contains(Self.question) && !run.stderr.contains("note: nothing is learned"))
        #expect(pastRequests(server) == 2)
        #expect(try weighting(run) == "learned")
    }

    @Test func neverNeitherAsksNorSaysNorFetches() async throws {
        let server = try PastWorld.server()
        let config = try configuration(server, extra: #", "learn_on_first_use": "never""#)
        let run = await run(Self.forecast + ["--config", config], terminal: true, answers: ["y"], environment: PastWorld.environment())
        #expect(run.code == 0, "\(run.stderr)")
        #expect(!run.stderr.contains(Self.question) && !run.stderr.contains("isobar learn"))
        #expect(pastRequests(server) == 0)
    }

    @Test func withoutObservationsOrLearnedWeightsNothingIsOffered() async throws {
        let server = try PastWorld.server()
        let bare = await run(Self.forecast + ["--config", try configuration(server, observations: false)], terminal: true, answers: ["y"],
                             environment: PastWorld.environment())
        #expect(bare.code == 0, "\(bare.stderr)")
        #expect(!bare.stderr.contains(Self.question) && !bare.stderr.contains("isobar learn"))
        let equal = await run(["forecast", "Minsk", "--hourly", "--timeout", "600", "--json", "--config", try configuration(server)],
                              terminal: true, answers: ["y"], environment: PastWorld.environment())
        #expect(equal.code == 0, "\(equal.stderr)")
        #expect(!equal.stderr.contains(Self.question) && !equal.stderr.contains("isobar learn"))
        #expect(pastRequests(server) == 0)
    }

    @Test func anUnknownSettingIsAOneLineConfigurationError() async throws {
        let server = try PastWorld.server()
        let config = try configuration(server, extra: #", "learn_on_first_use": "sometimes""#)
        expectOneLineError(await runCLI(Self.forecast + ["--config", config]), code: .configuration, containing: "learn_on_first_use must be")
    }
}
