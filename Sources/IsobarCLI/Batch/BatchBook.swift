import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarRender
import Synchronization

/// Counts of a batch so far, for the progress line and the summary.
struct BatchCounts: Sendable, Equatable {
    /// Places whose consensus is written.
    var places = 0
    /// Places every provider answered.
    var ok = 0
    /// Places some providers answered.
    var partial = 0
    /// Places no provider answered.
    var failed = 0
    /// Lines that could not be asked about.
    var inputErrors = 0
    /// Provider answers taken from the cache within their time to live.
    var cacheHits = 0

    /// Input items finished: places and bad lines.
    var done: Int { places + inputErrors }
}

/// The batch's book of what is in flight: which input line each engine request came from, the places' counts, and the
/// order lines are written in (as they complete, or in input order through a reorder buffer of at most `window` items).
///
/// Every input item (a place or a bad line) takes the next sequence number as it is read; in input order an item's lines
/// are held until every item before it is written. In either order the reader waits while `window` items are read but
/// not yet written: when the output is slower than the engine (a slow reader of stdout, or days of hours to render),
/// the engine waits too, rather than piling up answers nobody has written.
final class BatchBook: Sendable {
    private struct Place {
        var sequence: Int
        var label: LineLabel
        var answered = 0
        /// Providers that were not asked because the place is outside their declared coverage.
        var notCovered = 0
        var lines: [UInt8] = []
    }

    private struct State {
        var places: [RequestID: Place] = [:]
        var nextRequest = 0
        var nextSequence = 0
        var nextToWrite = 0
        var finished: [Int: [UInt8]] = [:]
        var counts = BatchCounts()
        var stopped = false
        var roomWaiter: CheckedContinuation<Bool, Never>?
    }

    private let state = Mutex(State())
    private let order: BatchOrder
    private let window: Int
    private let providers: Int
    private let output: any OutputSink

    /// A book writing to `output` in `order`; a place is ok when all `providers` answer (those whose coverage leaves it out aside).
    init(order: BatchOrder, window: Int, providers: Int, output: any OutputSink) {
        self.order = order
        self.window = max(1, window)
        self.providers = providers
        self.output = output
    }

    /// The counts so far.
    var counts: BatchCounts { state.withLock { $0.counts } }

    /// True once the run stopped taking places (interrupted, past its deadline, or its output closed).
    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Stops taking places; a reader waiting for room is let go.
    func stop() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            state.stopped = true
            defer { state.roomWaiter = nil }
            return state.roomWaiter
        }
        waiter?.resume(returning: false)
    }

    /// Items read and not yet written out.
    private func unwritten(_ state: State) -> Int {
        state.nextSequence - (order == .input ? state.nextToWrite : state.counts.done)
    }

    /// Waits until another item may be read (fewer than `window` unwritten); false once stopped.
    func waitForRoom() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let ready = state.withLock { state -> Bool? in
                if state.stopped { return false }
                if unwritten(state) < window { return true }
                state.roomWaiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// True while the reader waits for room (tests).
    var isWaitingForRoom: Bool { state.withLock { $0.roomWaiter != nil } }

    /// Books a place about to be handed to the engine: it becomes the engine's next request.
    func takePlace(_ label: LineLabel) {
        state.withLock { state in
            state.places[RequestID(state.nextRequest)] = Place(sequence: state.nextSequence, label: label)
            state.nextRequest += 1
            state.nextSequence += 1
        }
    }

    /// Writes (or holds, in input order) a bad line's `input_error` line.
    func inputError(_ line: [UInt8]) {
        finish { state in
            state.counts.inputErrors += 1
            let sequence = state.nextSequence
            state.nextSequence += 1
            return (sequence, line)
        }
    }

    /// The label of the request's input line.
    func label(of request: RequestID) -> LineLabel? { state.withLock { $0.places[request]?.label } }

    /// Writes (or holds) the line of one engine event; the consensus ends its place and counts it.
    func record(_ event: EngineEvent<ConsensusResult>, line: [UInt8]) {
        let request = event.request.id
        switch event {
        case .result(_, let result):
            state.withLock { state in
                state.places[request]?.answered += 1
                if case .cached = result.report.freshness { state.counts.cacheHits += 1 }
                hold(line, for: request, in: &state)
            }
        case .failure:
            state.withLock { state in
                if event.isOutsideCoverage { state.places[request]?.notCovered += 1 }
                hold(line, for: request, in: &state)
            }
        case .consensus:
            finish { state in
                guard var place = state.places.removeValue(forKey: request) else { return nil }
                state.counts.places += 1
                if place.answered >= providers - place.notCovered {
                    state.counts.ok += 1
                } else if place.answered > 0 {
                    state.counts.partial += 1
                } else {
                    state.counts.failed += 1
                }
                place.lines += line
                return (place.sequence, place.lines)
            }
        }
    }

    /// Keeps a provider's line with its place's, to be written with its consensus (which always ends a place, and which the
    /// engine hands over together with the place's answers): one write a place, in either order.
    private func hold(_ line: [UInt8], for request: RequestID, in state: inout State) {
        // Room at once for another line like it and a consensus (a few KiB for current conditions), rather than growing twice.
        if state.places[request]?.lines.isEmpty == true { state.places[request]?.lines.reserveCapacity(2 * line.count + (8 << 10)) }
        state.places[request]?.lines += line
    }

    /// Ends an item: writes its lines now (completion order) or once every earlier item is written (input order).
    /// Lines are written with the book locked, so that no two lines ever interleave and input order holds.
    private func finish(_ body: (inout State) -> (sequence: Int, lines: [UInt8])?) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let (sequence, lines) = body(&state) else { return nil }
            if order == .input {
                state.finished[sequence] = lines
                while let next = state.finished.removeValue(forKey: state.nextToWrite) {
                    write(next)
                    state.nextToWrite += 1
                }
            } else {
                write(lines)
            }
            guard unwritten(state) < window else { return nil }
            defer { state.roomWaiter = nil }
            return state.roomWaiter
        }
        waiter?.resume(returning: true)
    }

    /// Writes every item held back for an earlier one that will never finish (a run cut short), in input order.
    func flushHeld() {
        state.withLock { state in
            for sequence in state.finished.keys.sorted() { write(state.finished[sequence] ?? []) }
            state.finished = [:]
        }
    }

    /// Writes a line that belongs to no item (the summary), after everything else.
    func writeLast(_ text: String) {
        state.withLock { _ in write(Array(text.utf8)) }
    }

    private func write(_ text: [UInt8]) {
        output.write(utf8: text)
        output.flush()
    }
}
