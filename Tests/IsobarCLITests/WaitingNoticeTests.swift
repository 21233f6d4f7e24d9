import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Synchronization
import Testing

/// Collects text and says it is a terminal.
private final class TerminalSink: OutputSink {
    private let storage = Mutex("")
    func write(_ text: String) { storage.withLock { $0 += text } }
    func flush() {}
    var isTerminal: Bool { true }
    var text: String { storage.withLock { $0 } }
}

@Suite struct WaitingNoticeTests {
    func run(delay: Double, errors: any OutputSink, format: [String] = [], time: any TimeSource = SystemTime()) async throws -> Int32 {
        let body = try cassetteText(provider: "open-meteo", place: "minsk", pathSuffix: "/v1/forecast")
        let server = try LoopbackServer { _ in .init(body, delaySeconds: delay) }
        let config = try temporaryConfiguration("""
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)"}]}
        """)
        let environment = ["ISOBAR_DATA_DIR": dataDirectory, "HOME": "/nonexistent-home", "XDG_CACHE_HOME": temporaryDirectory("waiting")]
        let cli = IsobarCommandLine(environment: environment, output: BufferedSink(), errors: errors,
                                    liveTransport: { CurlTransport(userAgent: "isobar/test") }, time: time)
        return await cli.run(["compare", "Minsk", "--config", config] + format)
    }

    @Test func aSlowFetchSaysSoOnATerminalThenErasesIt() async throws {
        let errors = TerminalSink()
        #expect(try await run(delay: 0.9, errors: errors) == 0)
        #expect(errors.text == "asking 1 provider…\r\r\u{1B}[K")
    }

    @Test func aQuickFetchOrAPipeShowsNothing() async throws {
        // A clock that does not move: the answer always comes before the notice's moment.
        let quick = TerminalSink()
        #expect(try await run(delay: 0, errors: quick, time: ManualClock(start: Date())) == 0)
        #expect(!quick.text.contains("asking"))
        let pipe = BufferedSink()
        #expect(try await run(delay: 0.9, errors: pipe, format: ["--json"]) == 0)
        #expect(pipe.text.isEmpty)
    }
}
