import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarStore
import Synchronization

/// Keeps a batch's live answers in the forecast archive as the single-place commands do, off the consumer's path: the
/// consumer only collects (under a lock); one writer writes what was collected in one transaction every second, or as soon
/// as `batchSize` answers wait, and once more at the end. The archive is pruned once per run, with the first write.
///
/// With observations configured, each place's proxy (the first provider, in the configuration's order, whose fresh live
/// answer has current values at most 90 minutes old) is kept too; a batch asks no METAR station (see "Forecast archive" in docs/guide.md).
/// A failure to write ends the archiving for the run and is reported once, by `finish`.
final class BatchArchive: Sendable {
    /// Answers collected before the writer is woken ahead of its second.
    static let batchSize = 256
    /// Answers collected and not yet written beyond which the consumer waits for the writer, so memory stays bounded.
    static let maximumUnwritten = 4 * batchSize

    private let collected = Collected()
    private let keepsProxies: Bool
    private let order: [String]
    private let now: @Sendable () -> Date
    private let wake: AsyncStream<Void>.Continuation
    private let writer: Task<String?, Never>
    private let ticker: Task<Void, Never>

    /// An archive writing to the user's data folder `directory`, keeping `days` days; proxies when `keepsProxies`, chosen
    /// in the provider `order`.
    init(directory: String, days: Int, keepsProxies: Bool, order: [String], now: @escaping @Sendable () -> Date) {
        self.keepsProxies = keepsProxies
        self.order = order
        self.now = now
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.wake = wake
        let collected = collected
        writer = Task {
            var store: UserDataStore?
            var pruned = false
            var failure: String?
            func write() async {
                let (reports, observations) = collected.take()
                guard failure == nil, !reports.isEmpty || !observations.isEmpty else { return }
                do {
                    if store == nil { store = try await UserDataStore.open(directory: directory) }
                    let cutoff = pruned ? nil : now().addingTimeInterval(-Double(days) * 86_400)
                    try await store?.archive(reports, observations: observations, pruningBefore: cutoff)
                    pruned = true
                    collected.written(reports.count)
                } catch {
                    failure = error.message
                    collected.fail()
                }
            }
            for await _ in wakes { await write() }
            await write()
            return failure
        }
        ticker = Task {
            while (try? await Task.sleep(for: .seconds(1))) != nil { wake.yield() }
        }
    }

    /// Notes one engine event of the run: a fresh live answer's steps to archive, and (keeping proxies) its current values
    /// until the place's consensus picks the proxy.
    func record(_ event: EngineEvent<ConsensusResult>) async {
        switch event {
        case .result(let request, let result):
            let report = result.report
            let keepsCurrent = keepsProxies && report.current != nil
            guard report.source == .live, report.freshness == .fresh, !report.hourly.isEmpty || keepsCurrent else { return }
            let full = collected.state.withLock { state -> Bool in
                guard !state.failed else { return false }
                if !report.hourly.isEmpty {
                    state.reports.append(report)
                    state.unwritten += 1
                }
                if keepsCurrent { state.current[request.id, default: []].append(report) }
                return state.reports.count + state.observations.count >= Self.batchSize
            }
            if full { wake.yield() }
            // A writer that falls behind (a slow disk) holds the consumer back instead of letting answers pile up.
            while !Task.isCancelled, collected.isBehind(Self.maximumUnwritten) {
                wake.yield()
                try? await Task.sleep(for: .milliseconds(5))
            }
        case .consensus(let request, _):
            guard keepsProxies else { return }
            let reports = collected.state.withLock { $0.current.removeValue(forKey: request.id) } ?? []
            guard let (provider, current) = CommandContext.proxyObservation(reports, order: order, now: now()) else { return }
            let observation = ObservationToArchive(current, source: ArchivedObservation.proxySource, station: provider, place: request.place)
            collected.state.withLock { state in if !state.failed { state.observations.append(observation) } }
        case .failure:
            return
        }
    }

    /// Writes what is still collected and stops the writer; waits at most `seconds` when given (the write goes on in the
    /// background after that, and a failure then goes unreported). Returns why the archive could not be written, if so.
    func finish(waitingAtMost seconds: Double? = nil) async -> String? {
        ticker.cancel()
        wake.finish()
        guard let seconds else { return await writer.value }
        let writer = writer
        let outcome = WriterOutcome()
        Task { outcome.settle(await writer.value) }
        let clock = ContinuousClock()
        let end = clock.now + .milliseconds(Int(seconds * 1000))
        while !outcome.isSettled, clock.now < end {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return outcome.failure
    }
}

/// What a batch collected for the archive and has not written yet.
private final class Collected: Sendable {
    struct State {
        var reports: [WeatherReport] = []
        var observations: [ObservationToArchive] = []
        /// Each place's fresh live answers with current values, until its consensus ends it (only when keeping proxies).
        var current: [RequestID: [WeatherReport]] = [:]
        /// Answers collected and not yet written (those being written included).
        var unwritten = 0
        /// Set once a write failed: nothing more is collected.
        var failed = false
    }

    /// The collection, under its lock.
    let state = Mutex(State())

    /// Everything waiting to be written, leaving nothing.
    func take() -> (reports: [WeatherReport], observations: [ObservationToArchive]) {
        state.withLock { state in
            defer {
                state.reports = []
                state.observations = []
            }
            return (state.reports, state.observations)
        }
    }

    /// Notes `count` answers written.
    func written(_ count: Int) {
        state.withLock { $0.unwritten -= count }
    }

    /// True while at least `limit` answers wait to be written and writing has not failed.
    func isBehind(_ limit: Int) -> Bool {
        state.withLock { !$0.failed && $0.unwritten >= limit }
    }

    /// Stops collecting, after a failed write.
    func fail() {
        state.withLock { state in
            state.failed = true
            state.current = [:]
            state.unwritten = 0
        }
    }
}

/// The writer's end, as a bounded wait sees it.
private final class WriterOutcome: Sendable {
    private let state = Mutex<(settled: Bool, failure: String?)>((false, nil))

    /// True once the writer is done.
    var isSettled: Bool { state.withLock { $0.settled } }
    /// Why the writer failed, once done.
    var failure: String? { state.withLock { $0.failure } }
    /// Notes the writer's end.
    func settle(_ failure: String?) { state.withLock { $0 = (true, failure) } }
}

extension BatchCommand {
    /// The run's archive writer; nil when archiving is off (`archive_days` 0), with `--demo`, or with no data folder.
    func batchArchive(_ setup: WeatherSetup) -> BatchArchive? {
        guard setup.configuration.archiveDays > 0, !setup.demo, let directory = context.userDataDirectory() else { return nil }
        let time = context.time
        return BatchArchive(directory: directory, days: setup.configuration.archiveDays, keepsProxies: setup.configuration.observations != nil,
                            order: setup.bindings.map(\.provider.id), now: { time.now() })
    }
}
