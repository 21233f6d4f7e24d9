import Foundation
@testable import IsobarCLI
@testable import IsobarConsensus
import IsobarCore
import IsobarEngine
@testable import IsobarRender
import IsobarTestKit
import Testing

@Suite struct BatchLineTests {
    func parse(_ text: String, tooLong: Bool = false) -> Result<BatchAsk, BatchLineError>? {
        BatchLine.parse(InputLine(number: 1, text: text, isTooLong: tooLong))
    }

    @Test func blankLinesAreSkipped() {
        #expect(parse("") == nil)
        #expect(parse("   \t") == nil)
    }

    @Test func namesAndCoordinatesAsText() {
        #expect(parse("  Minsk ") == .success(BatchAsk(target: .text("Minsk"), id: nil)))
        #expect(parse("53.9,27.57") == .success(BatchAsk(target: .text("53.9,27.57"), id: nil)))
        if case .failure(let error) = parse("91,10") { #expect(error.code == .badCoordinates) } else { Issue.record("91,10 accepted") }
    }

    @Test func jsonObjects() {
        #expect(parse(#"{"id": "a", "place": "Minsk"}"#) == .success(BatchAsk(target: .text("Minsk"), id: "a")))
        let coordinate = Coordinate(latitude: 53.9, longitude: 27.57)!
        #expect(parse(#"{"id": "b", "latitude": 53.9, "longitude": 27.57}"#) == .success(BatchAsk(target: .coordinate(coordinate), id: "b")))
        #expect(parse(#"{"latitude": 53, "longitude": 27}"#) == .success(BatchAsk(target: .coordinate(Coordinate(latitude: 53, longitude: 27)!), id: nil)))
    }

    @Test(arguments: [
        (#"{"id": "a", "place": "#, InputErrorCode.invalidJSON, nil as String?),
        (#"{"id": 3, "place": "Minsk"}"#, .badInput, nil),
        (#"{"id": "a"}"#, .badInput, "a"),
        (#"{"id": "a", "place": 5}"#, .badInput, "a"),
        (#"{"id": "a", "place": "Minsk", "latitude": 1, "longitude": 2}"#, .badInput, "a"),
        (#"{"id": "a", "latitude": "53", "longitude": 27}"#, .badCoordinates, "a"),
        (#"{"id": "a", "latitude": 53, "longitude": 270}"#, .badCoordinates, "a"),
        (#"{"id": "a", "place": "95,10"}"#, .badCoordinates, "a"),
        ("Min\u{1}sk", .badInput, nil),
    ])
    func badLines(_ text: String, _ code: InputErrorCode, _ id: String?) {
        guard case .failure(let error) = parse(text) else { Issue.record("\(text) accepted"); return }
        #expect(error.code == code)
        #expect(error.id == id)
        #expect(!error.message.isEmpty)
    }

    @Test func aPlaceNameIsLimitedInCharactersNotBytes() {
        let longest = String(repeating: "é", count: 200)
        #expect(parse(" \(longest) ") == .success(BatchAsk(target: .text(longest), id: nil)))
        guard case .failure(let error) = parse(longest + "é") else { Issue.record("201 characters accepted"); return }
        #expect(error.code == .badInput)
        #expect(error.message == "the place is too long (201 characters; at most 200)")
    }

    @Test func aLongLineIsAnError() {
        guard case .failure(let error) = parse("Minsk", tooLong: true) else { Issue.record("accepted"); return }
        #expect(error.code == .lineTooLong)
    }

    @Test func inputErrorLinesCutTheInputAndKeepTheShape() throws {
        let line = InputLine(number: 12, text: String(repeating: "é", count: 300), isTooLong: true)
        let text = BatchLines.inputError(line: line, BatchLineError(code: .lineTooLong, message: "too long", id: "x"))
        #expect(text.hasPrefix(#"{"schema":1,"type":"input_error","input_line":12,"id":"x","input":""#))
        let value = try JSONDocument(parsing: Array(text.utf8)).rootValue
        #expect(try value.string("input").count == 200)
        #expect(try value.member("error").string("code") == "line_too_long")
    }

    @Test func summaryLineShape() {
        let counts = BatchCounts(places: 3, ok: 1, partial: 1, failed: 1, inputErrors: 2, cacheHits: 4)
        #expect(BatchLines.summary(counts, requests: 5, wallSeconds: 1.23456, interrupted: true)
            == #"{"schema":1,"type":"summary","places":3,"ok":1,"partial":1,"failed":1,"input_errors":2,"requests":5,"cache_hits":4,"wall_s":1.235,"interrupted":true}"# + "\n")
    }
}

@Suite struct InputLinesTests {
    func read(_ text: String) async throws -> [InputLine] {
        let path = temporaryDirectory("lines") + "/input"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        guard case .success(let lines) = InputLines.open(path) else { throw CocoaError(.fileReadNoSuchFile) }
        var all: [InputLine] = []
        while let chunk = await lines.next() { all += chunk }
        return all
    }

    @Test func linesAreNumberedWithoutBreaks() async throws {
        let lines = try await read("a\r\nb\n\nc")
        #expect(lines == [InputLine(number: 1, text: "a", isTooLong: false), InputLine(number: 2, text: "b", isTooLong: false),
                          InputLine(number: 3, text: "", isTooLong: false), InputLine(number: 4, text: "c", isTooLong: false)])
    }

    @Test func manyLinesComeInChunks() async throws {
        let lines = try await read((1...1000).map { "line \($0)" }.joined(separator: "\n") + "\n")
        #expect(lines.count == 1000)
        #expect(lines.last == InputLine(number: 1000, text: "line 1000", isTooLong: false))
    }

    @Test func aLongLineIsCutAndMarked() async throws {
        let lines = try await read(String(repeating: "y", count: 200_000) + "\nshort\n")
        #expect(lines.count == 2)
        #expect(lines[0].isTooLong && lines[0].text.utf8.count == InputLines.maxLineBytes)
        #expect(lines[1] == InputLine(number: 2, text: "short", isTooLong: false))
    }

    @Test func stoppingEndsTheLines() async throws {
        let path = temporaryDirectory("lines") + "/input"
        try "a\nb\n".write(toFile: path, atomically: true, encoding: .utf8)
        guard case .success(let lines) = InputLines.open(path) else { throw CocoaError(.fileReadNoSuchFile) }
        lines.stop()
        #expect(await lines.next() == nil)
    }

    @Test func countingSkipsBlankLines() throws {
        let path = temporaryDirectory("lines") + "/input"
        try "a\n  \nb\n\nc".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(InputLines.countNonBlank(path: path) == 3)
        #expect(InputLines.countNonBlank(path: "-") == nil)
    }
}

@Suite struct BatchBookTests {
    let place = Place(name: "P", coordinate: Coordinate(latitude: 1, longitude: 2)!)

    func request(_ number: Int) -> EngineRequest { EngineRequest(id: RequestID(number), weather: WeatherRequest(place: place, kinds: [.current])) }

    func consensus(_ number: Int) -> EngineEvent<ConsensusResult> { .consensus(request(number), ConsensusV1.merge([], place: place, weights: [:], now: Date())) }

    func failure(_ number: Int) -> EngineEvent<ConsensusResult> { .failure(request(number), providerID: "p", error: ProviderError(.unavailable, "down")) }

    @Test func inputOrderHoldsLaterPlacesUntilEarlierOnesFinish() {
        let output = BufferedSink()
        let book = BatchBook(order: .input, window: 10, providers: 1, output: output)
        book.takePlace(LineLabel(inputLine: 1, id: nil, query: "a"))
        book.takePlace(LineLabel(inputLine: 2, id: nil, query: "b"))
        book.inputError(Array("bad 3\n".utf8))
        book.record(failure(1), line: Array("fail 2\n".utf8))
        book.record(consensus(1), line: Array("done 2\n".utf8))
        #expect(output.text.isEmpty)
        book.record(consensus(0), line: Array("done 1\n".utf8))
        #expect(output.text == "done 1\nfail 2\ndone 2\nbad 3\n")
        #expect(book.counts == BatchCounts(places: 2, ok: 0, partial: 0, failed: 2, inputErrors: 1, cacheHits: 0))
    }

    @Test func completionOrderWritesAtOnce() {
        let output = BufferedSink()
        let book = BatchBook(order: .completion, window: 1, providers: 1, output: output)
        book.takePlace(LineLabel(inputLine: 1, id: "x", query: "a"))
        book.takePlace(LineLabel(inputLine: 2, id: nil, query: "b"))
        #expect(book.label(of: RequestID(0))?.id == "x")
        book.record(consensus(1), line: Array("done 2\n".utf8))
        book.inputError(Array("bad 3\n".utf8))
        #expect(output.text == "done 2\nbad 3\n")
        #expect(book.label(of: RequestID(1)) == nil)
    }

    @Test func inCompletionOrderAPlacesLinesAreWrittenTogetherWithItsConsensus() {
        let output = BufferedSink()
        let book = BatchBook(order: .completion, window: 10, providers: 2, output: output)
        book.takePlace(LineLabel(inputLine: 1, id: nil, query: "a"))
        book.takePlace(LineLabel(inputLine: 2, id: nil, query: "b"))
        book.record(failure(0), line: Array("fail 1\n".utf8))
        book.record(failure(1), line: Array("fail 2\n".utf8))
        book.record(failure(0), line: Array("fail 1 again\n".utf8))
        #expect(output.text.isEmpty, "a provider's line waits for its place's consensus")
        book.record(consensus(1), line: Array("done 2\n".utf8))
        #expect(output.text == "fail 2\ndone 2\n")
        #expect(output.flushCount == 1, "one write for the place")
        book.record(consensus(0), line: Array("done 1\n".utf8))
        #expect(output.text == "fail 2\ndone 2\nfail 1\nfail 1 again\ndone 1\n")
        #expect(output.flushCount == 2)
        #expect(book.counts == BatchCounts(places: 2, ok: 0, partial: 0, failed: 2, inputErrors: 0, cacheHits: 0))
    }

    @Test func theReaderWaitsForRoomInInputOrderAndIsLetGoWhenStopped() async {
        let book = BatchBook(order: .input, window: 1, providers: 1, output: BufferedSink())
        #expect(await book.waitForRoom())
        book.takePlace(LineLabel(inputLine: 1, id: nil, query: "a"))
        async let room = book.waitForRoom()
        book.stop()
        #expect(await room == false)
        #expect(await book.waitForRoom() == false)
    }

    @Test func inCompletionOrderTooTheReaderWaitsWhileTheWindowIsUnwrittenAndGoesOnOnceAPlaceIsWritten() async {
        let output = BufferedSink()
        let book = BatchBook(order: .completion, window: 2, providers: 1, output: output)
        #expect(await book.waitForRoom())
        book.takePlace(LineLabel(inputLine: 1, id: nil, query: "a"))
        // A bad line is written at once: it takes no room.
        book.inputError(Array("bad 2\n".utf8))
        #expect(await book.waitForRoom())
        book.takePlace(LineLabel(inputLine: 3, id: nil, query: "c"))
        let waiting = Task { await book.waitForRoom() }
        #expect(await eventually { book.isWaitingForRoom })
        // A provider's line alone does not end its place: the reader still waits.
        book.record(failure(1), line: Array("fail 3\n".utf8))
        #expect(book.isWaitingForRoom)
        #expect(book.counts.places == 0)
        book.record(consensus(1), line: Array("done 3\n".utf8))
        #expect(await waiting.value)
        #expect(output.text == "bad 2\nfail 3\ndone 3\n")
    }

    @Test func inCompletionOrderAFullWindowKeepsTheReaderWaiting() async {
        let book = BatchBook(order: .completion, window: 1, providers: 1, output: BufferedSink())
        book.takePlace(LineLabel(inputLine: 1, id: nil, query: "a"))
        let waiting = Task { await book.waitForRoom() }
        #expect(await eventually { book.isWaitingForRoom })
        #expect(book.counts.places == 0)
        book.stop()
        #expect(await waiting.value == false, "still waiting when stopped: the window was full")
    }

    @Test func heldLinesAreWrittenWhenTheRunIsCutShort() {
        let output = BufferedSink()
        let book = BatchBook(order: .input, window: 10, providers: 1, output: output)
        book.takePlace(LineLabel(inputLine: 1, id: nil, query: "a"))
        book.inputError(Array("bad 2\n".utf8))
        #expect(output.text.isEmpty)
        book.flushHeld()
        #expect(output.text == "bad 2\n")
    }
}

@Suite struct BatchProgressTests {
    @Test func withATotal() {
        let counts = BatchCounts(places: 100, ok: 97, partial: 1, failed: 2, inputErrors: 1, cacheHits: 0)
        #expect(BatchProgress.text(counts, total: 1010, elapsed: 10) == "batch: 101/1010 (10%)  10.1/s  ETA 1 min 30 s  2 failed, 1 partial, 1 bad line")
    }

    @Test func withoutATotal() {
        #expect(BatchProgress.text(BatchCounts(places: 3, ok: 3), total: nil, elapsed: 2) == "batch: 3 done  1.5/s")
    }

    @Test func drawnInPlaceAndErased() {
        let sink = BufferedSink()
        var progress = BatchProgress(sink: sink)
        progress.erase()
        #expect(sink.text.isEmpty)
        progress.draw(BatchCounts(places: 1, ok: 1), total: 2, elapsed: 1)
        progress.erase()
        #expect(sink.text == "\r\u{1B}[Kbatch: 1/2 (50%)  1/s  ETA 1 s\r\u{1B}[K")
    }
}

/// Every write as it came, to see which lines were written together.
private final class WriteLog: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var writes: [String] = []

    func write(_ text: String) { lock.withLock { writes.append(text) } }
    func flush() {}
    var isTerminal: Bool { false }
    var all: [String] { lock.withLock { writes } }
}

@Suite struct BatchBookWritesTests {
    let place = Place(name: "P", coordinate: Coordinate(latitude: 1, longitude: 2)!)

    func request(_ number: Int) -> EngineRequest { EngineRequest(id: RequestID(number), weather: WeatherRequest(place: place, kinds: [.current])) }

    func consensus(_ number: Int) -> EngineEvent<ConsensusResult> { .consensus(request(number), ConsensusV1.merge([], place: place, weights: [:], now: Date())) }

    func failure(_ number: Int, _ provider: String) -> EngineEvent<ConsensusResult> {
        .failure(request(number), providerID: provider, error: ProviderError(.unavailable, "down"))
    }

    @Test func inCompletionOrderEveryLineOfAPlaceReachesTheReaderInOneWriteWithItsConsensus() {
        let output = WriteLog()
        // Two providers configured, three lines for the place: one provider answered for several sources (models).
        let book = BatchBook(order: .completion, window: 10, providers: 2, output: output)
        book.takePlace(LineLabel(inputLine: 1, id: nil, query: "a"))
        book.takePlace(LineLabel(inputLine: 2, id: nil, query: "b"))
        book.record(failure(0, "p"), line: Array("p 1\n".utf8))
        book.record(failure(1, "p"), line: Array("p 2\n".utf8))
        book.record(failure(0, "q"), line: Array("q 1\n".utf8))
        book.record(failure(0, "r"), line: Array("r 1\n".utf8))
        #expect(output.all.isEmpty)
        book.record(consensus(0), line: Array("done 1\n".utf8))
        #expect(output.all == ["p 1\nq 1\nr 1\ndone 1\n"])
        #expect(book.counts.failed == 1)
        book.record(consensus(1), line: Array("done 2\n".utf8))
        #expect(output.all == ["p 1\nq 1\nr 1\ndone 1\n", "p 2\ndone 2\n"])
        book.flushHeld()
        #expect(output.all.count == 2, "nothing was held back to write twice")
    }
}
