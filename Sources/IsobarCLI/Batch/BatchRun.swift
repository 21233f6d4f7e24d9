import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarHTTP
import IsobarRender
import IsobarStore
import Synchronization

/// `isobar batch [FILE|-]`: every place of the input through one engine, lines streamed as they complete, a summary last.
struct BatchCommand: IsobarCommand {
    typealias Own = BatchOptions
    static let spec = Commands.batch
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// JSON lines unless `--format csv`: a batch has no table.
    static func writes(_ invocation: Invocation) -> OutputText { RendererFactory.batchText(invocation.options.format) }

    /// Seconds in-flight places may still finish after Ctrl-C before they are cancelled.
    static let interruptGraceSeconds = 0.6

    /// Seconds between progress redraws (at most ten a second), and between looks at Ctrl-C and the deadline.
    static let batchTickSeconds = 0.1

    /// Runs the command and returns its exit code.
    func run() async throws -> ExitCode {
        let path = invocation.positionals.first ?? "-"
        let lines: InputLines
        switch InputLines.open(path) {
        case .success(let opened): lines = opened
        case .failure(let error):
            context.errors.write("isobar: \(error.message)\n")
            return .noInput
        }
        defer { lines.stop() }
        let air = own.kind == .air
        var setup = try await context.weatherSetup(invocation, air: air)
        setup.options.timeoutSeconds = own.deadlineSeconds ?? EngineOptions.noDeadlineSeconds
        setup.options.waitsForRateLimits = true
        setup.options.maxConcurrentCallsPerProvider = min(own.jobs, EngineOptions().maxConcurrentCallsPerProvider)
        // Twice the places: while one place's calls are on the wire, another's cache, lease and ledger work is done, so that
        // no provider's call slots idle between places (the calls in flight stay within each provider's bound).
        setup.options.maxConcurrentRequests = Self.batchPlacesInFlight(jobs: own.jobs)
        // Resuming asks the same kinds again: answers a provider gives beyond them are not worth encoding.
        setup.options.cachesOnlyAskedKinds = true
        // Learned weights over every place in the archive: one record for the whole run.
        if !air { setup = await context.learned(setup, near: nil) }
        // Live answers go to the forecast archive through one writer, a transaction at a time, off the consumer's path (the
        // weather's only: the archive scores forecasts).
        let archive = air ? nil : batchArchive(setup)
        let view = own.kind.view(days: own.days)
        let started = context.time.now()
        let book = BatchBook(order: own.order, window: 4 * own.jobs + 32, providers: setup.bindings.count, output: context.output)
        let errors = context.errors
        let places = BatchPlaces(resolver: try context.placeResolver(), geocoding: context.geocodingChain(setup, invocation), network: context.networkTransport(setup, invocation),
                                 time: context.time, missingData: DataDirectory.notFoundMessage(environment: context.environment),
                                 warn: { errors.write("isobar: warning: \($0)\n") })
        let csv = RendererFactory.batchRows(invocation.options.format, view: view, units: setup.units, now: started, leadingColumns: ["input_line", "id"])
        // An air batch writes the lines of `isobar air`, with hours for `--days` when given.
        let airHours = air && own.daysGiven ? own.days * 24 : 0
        let feed = BatchFeed(lines: lines, book: book, places: places, kinds: own.kind.kinds(days: own.days), inputErrorText: { line, error in
            if air, csv != nil { return BatchLines.airInputErrorRow(line: line, error) }
            return csv.map { $0.inputErrorLine(leading: [String(line.number), error.id], code: error.code.rawValue) }
                ?? BatchLines.inputError(line: line, error)
        })
        let rendering = RenderContext(view: view, place: Self.noPlace, units: setup.units,
                                      providers: setup.bindings.map { ($0.provider.id, $0.provider.displayName) },
                                      attributions: RenderContext.attributions(of: setup.bindings.map(\.provider)), color: false, now: started)
        if let csv { context.output.write(air ? BatchLines.airCSVHeader : csv.header) }
        let interrupt = InterruptSignal()
        defer { interrupt.restore() }

        // Current conditions are small answers, so the run mostly waits on the network: the places' tasks run on the HTTP
        // I/O thread. Hours and days take far more decoding and merging than waiting, and use every core instead; so do
        // runs without live calls, and those with a shared store (whose calls block).
        let onLoop = own.kind == .current && setup.bindings.contains { $0.policy != nil } && !invocation.options.offline && setup.shared == nil
        let loop = onLoop ? setup.live.loopExecutor() : nil
        // A place's lines are written together (as its consensus needs every answer anyway): one hand-over a place.
        let placesEvents = context.engine(setup, taskExecutor: loop ?? globalConcurrentExecutor).runByPlace(AsyncStream(unfolding: { await feed.next() }))
        let output = context.output
        // The warnings in force at each place, asked once its weather is in, and written before its first line (JSON lines only).
        let alerts = csv == nil && !setup.alertBindings.isEmpty
            ? AlertsGathering(bindings: setup.alertBindings, time: context.time, timeoutSeconds: EngineOptions().timeoutSeconds,
                              cache: setup.store, sendsValidators: setup.options.sendsValidators) : nil
        let airSources = AirCommand.sources(setup)
        let time = context.time
        let consumer = Task {
            var renderer = JSONLinesRenderer(context: rendering, output: output)
            var rows = csv
            var alertLines = AlertLines(query: "")
            for await events in placesEvents {
                if air {
                    Self.recordAir(events, book: book, sources: airSources, hours: airHours, csv: rows != nil, now: time.now())
                    if output.isClosed { return }
                    continue
                }
                var warnings: [UInt8] = []
                if let alerts, let first = events.first {
                    warnings = alertLines.lines(await alerts.report(for: first.request.place), label: book.label(of: first.request.id), failures: false)
                }
                for event in events {
                    await archive?.record(event)
                    let label = book.label(of: event.request.id)
                    if rows != nil {
                        book.record(event, line: Array(rows!.lines(for: event, leading: [label.map { String($0.inputLine) }, label?.id]).utf8))
                    } else {
                        book.record(event, line: warnings + renderer.line(for: event, label: label))
                        warnings = []
                    }
                }
                if output.isClosed { return }
            }
        }
        let stopTaking: @Sendable () -> Void = {
            book.stop()
            lines.stop()
        }
        let showsProgress = !own.quiet && BatchProgress.belongs(on: errors, besides: output)
        let watch = BatchWatch(interrupt: interrupt, deadline: own.deadlineSeconds.map { started.addingTimeInterval($0) },
                               progress: showsProgress ? errors : nil, total: showsProgress ? path : nil)
        let ticker = Task { await watch.run(book: book, consumer: consumer, time: context.time, started: started, stopTaking: stopTaking) }
        await consumer.value
        // What is left for the archive is written meanwhile; a run cut short waits for it no longer than for the cache.
        let cutShort = interrupt.wasRaised || output.isClosed
        async let archived = archive?.finish(waitingAtMost: cutShort ? Self.interruptGraceSeconds / 2 : nil)
        // A run cut short (Ctrl-C, a closed pipe) ends before the engine commits the writes its calls queued: commit them
        // here, waiting no longer than a moment for a store whose lock another process holds.
        if let store = setup.store { await Self.flush(store, waitingAtMost: Self.interruptGraceSeconds / 2) }
        await setup.shared?.finish()
        stopTaking()
        ticker.cancel()
        let ending = await ticker.value
        if let failure = await archived { context.warn("the forecast archive was not updated: \(failure)") }
        guard !output.isClosed else { return .outputClosed }
        book.flushHeld()
        let counts = book.counts
        let wall = context.time.now().timeIntervalSince(started)
        if csv != nil {
            // A CSV file holds one table: the summary goes to stderr, in words.
            book.writeLast("")
            errors.write("isobar: \(BatchLines.summarySentence(counts, requests: setup.live.requestCount, wallSeconds: wall, interrupted: ending.interrupted))\n")
        } else {
            book.writeLast(BatchLines.summary(counts, requests: setup.live.requestCount, wallSeconds: wall, interrupted: ending.interrupted))
        }
        if ending.pastDeadline && !ending.interrupted {
            context.warn("the \(SpokenDuration.seconds(own.deadlineSeconds ?? 0)) s deadline passed: \(counts.done) input lines were done and the rest "
                + "not read; run the same command again to resume (every fresh answer comes from the cache)")
        }
        if ending.interrupted { return .interrupted }
        return Self.batchExitCode(counts, cutShort: ending.pastDeadline)
    }

    /// Books one place's air events: nothing for the sources' answers, and with the merge the place's `air` line (or CSV rows).
    private static func recordAir(_ events: [EngineEvent<ConsensusResult>], book: BatchBook, sources: [(id: String, name: String)], hours: Int,
                                  csv: Bool, now: Date) {
        guard let first = events.first else { return }
        let label = book.label(of: first.request.id)
        for event in events {
            guard case .consensus = event else {
                book.record(event, line: [])
                continue
            }
            let report = AirCommand.report(event.request.place, events, sources: sources, now: now)
            let text = csv ? AirLines.csvRows(report, hours: hours, leading: [label.map { String($0.inputLine) }, label?.id], trailing: [nil])
                : AirLines.line(report, hours: hours, label: label)
            book.record(event, line: Array(text.utf8))
        }
    }

    /// Commits the writes `store` has queued, waiting at most `seconds` (the commit goes on in the background after that).
    static func flush(_ store: Store, waitingAtMost seconds: Double) async {
        let done = FlushDone()
        Task {
            await store.flushQueuedWrites()
            done.value.store(true, ordering: .relaxed)
        }
        let clock = ContinuousClock()
        let end = clock.now + .milliseconds(Int(seconds * 1000))
        while !done.value.load(ordering: .relaxed), clock.now < end {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Places in flight at once for `--jobs N`: 2 × N.
    static func batchPlacesInFlight(jobs: Int) -> Int { 2 * jobs }

    /// 0 when every place was answered by every provider and every line was good; 3 when nothing was answered at all (every
    /// place failed, or every line was bad); 2 otherwise (some places partial or failed, some lines bad, or the deadline cut the run).
    static func batchExitCode(_ counts: BatchCounts, cutShort: Bool) -> ExitCode {
        if counts.done == 0 { return cutShort ? .partial : .success }
        if counts.ok + counts.partial == 0 { return .noneAnswered }
        return counts.partial + counts.failed + counts.inputErrors == 0 && !cutShort ? .success : .partial
    }

    /// The render context's place for a run over many: each line describes its own request's place instead.
    private static let noPlace = Place(name: "", coordinate: Coordinate(latitude: 0, longitude: 0)!)
}

/// Watches a running batch every tick: Ctrl-C (stop taking places; cancel what is still in flight after a grace), the
/// deadline (stop taking places), and the progress line on a terminal.
struct BatchWatch: Sendable {
    /// How the watch ended.
    struct Ending: Sendable {
        /// Ctrl-C arrived.
        var interrupted = false
        /// The deadline passed while places were still being taken.
        var pastDeadline = false
    }

    /// The SIGINT flag.
    let interrupt: InterruptSignal
    /// When the run must stop taking places; nil for never.
    let deadline: Date?
    /// Where the progress line is drawn; nil for none.
    let progress: (any OutputSink)?
    /// The input file whose lines are counted for the progress total; nil (or `-`) for no total.
    let total: String?

    /// Ticks until cancelled (when the consumer is done), then erases the progress line.
    func run(book: BatchBook, consumer: Task<Void, Never>, time: any TimeSource, started: Date,
             stopTaking: @escaping @Sendable () -> Void) async -> Ending {
        let counted = CountedLines()
        if let total { ReaderThread.start { counted.store(InputLines.countNonBlank(path: total)) } }
        var ending = Ending()
        var line = progress.map(BatchProgress.init(sink:))
        var cancelAt: Date?
        while !Task.isCancelled {
            do {
                try await time.sleep(seconds: BatchCommand.batchTickSeconds)
            } catch {
                break
            }
            let now = time.now()
            if interrupt.wasRaised && !ending.interrupted {
                ending.interrupted = true
                stopTaking()
                cancelAt = now.addingTimeInterval(BatchCommand.interruptGraceSeconds)
            }
            if let deadline, now >= deadline, !book.isStopped {
                ending.pastDeadline = true
                stopTaking()
            }
            if let cancelAt, now >= cancelAt { consumer.cancel() }
            line?.draw(book.counts, total: counted.value, elapsed: now.timeIntervalSince(started))
        }
        // Ctrl-C between the last tick and the end still counts.
        if interrupt.wasRaised { ending.interrupted = true }
        line?.erase()
        return ending
    }
}

/// The progress total, set by the thread that counts the input's lines.
private final class CountedLines: Sendable {
    private let count = Atomic<Int>(-1)
    /// The count, once known.
    var value: Int? {
        let value = count.load(ordering: .relaxed)
        return value >= 0 ? value : nil
    }
    /// Sets the count (nil: it cannot be known).
    func store(_ value: Int?) { count.store(value ?? -1, ordering: .relaxed) }
}

/// Set once a batch's queued writes are committed.
private final class FlushDone: Sendable {
    /// True once committed.
    let value = Atomic<Bool>(false)
}
