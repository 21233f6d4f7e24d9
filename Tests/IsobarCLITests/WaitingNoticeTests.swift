import Foundation
@testable import IsobarCLI
import IsobarCore
import IsobarHTTP
@testable import IsobarRender
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
    func run(delay: Double, errors: any OutputSink, format: [String] = []) async throws -> Int32 {
        let body = try cassetteText(provider: "open-meteo", place: "minsk", pathSuffix: "/v1/forecast")
        let server = try LoopbackServer { _ in .init(body, delaySeconds: delay) }
        let config = try temporaryConfiguration("""
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)"}]}
        """)
        let environment = ["LANG": "C.UTF-8", "ISOBAR_DATA_DIR": dataDirectory, "HOME": "/nonexistent-home", "XDG_CACHE_HOME": temporaryDirectory("waiting")]
        let cli = IsobarCommandLine(environment: environment, output: BufferedSink(), errors: errors,
                                    liveTransport: { CurlTransport(userAgent: "isobar/test") })
        return await cli.run(withRoomyDeadline(["compare", "Minsk", "--config", config] + format))
    }

    @Test func aSlowFetchSaysSoOnATerminalThenErasesIt() async throws {
        let errors = TerminalSink()
        #expect(try await run(delay: 0.9, errors: errors) == 0)
        #expect(errors.text == "asking 1 provider…\r\r\u{1B}[K")
    }

    @Test func aPipeShowsNothing() async throws {
        let pipe = BufferedSink()
        #expect(try await run(delay: 0.9, errors: pipe, format: ["--json"]) == 0)
        #expect(pipe.text.isEmpty)
    }

    @Test func theNoticeAppearsOnlyAfterItsMomentAndIsErasedOnce() async throws {
        let clock = ManualClock()
        let early = TerminalSink()
        let quick = WaitingNotice(sink: early)
        quick.start("asking 2 providers…", time: clock)
        quick.stop()
        clock.advance(by: 1)
        #expect(early.text.isEmpty)

        let late = TerminalSink()
        let slow = WaitingNotice(sink: late)
        slow.start("asking 2 providers…", time: clock)
        for _ in 0..<1000 where clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: WaitingNotice.delaySeconds)
        for _ in 0..<1000 where late.text.isEmpty { await Task.yield() }
        #expect(late.text == "asking 2 providers…\r")
        slow.stop()
        slow.stop()
        #expect(late.text == "asking 2 providers…\r\r\u{1B}[K")
    }
}
