import FixtureReplay
import FoundationEssentials
import IsobarCore
import IsobarEngine
#if canImport(Glibc)
import Glibc
#endif

/// The two kinds of source `learn` asks, each over the machinery the weather commands use: a source's past forecasts
/// and the observation source's archive go through the cache (`AnswerCachingTransport`: a kept answer within the
/// source's lifetime asks nobody; `--refresh`, `--offline`, `--max-age`), the past forecasts through the source's rate
/// limits too, and both through a recorder under `--record`; replayed entries (`--replay`, `--demo`, a `replay` path)
/// answer from their cassettes instead, and say when those were recorded.
struct LearnSources {
    /// One configured weather source, with what publishes its past forecasts and the transport its request goes over.
    struct Forecaster {
        /// The source as the weather commands bind it.
        let binding: ProviderBinding
        /// Its past forecasts, nil when it publishes none.
        let provider: (any PastForecasting)?
        /// The transport its request goes over.
        let transport: any Transport
        /// The cache in front of it (live sources).
        let cache: AnswerCachingTransport?
        /// Its recordings (replayed sources).
        let replay: ReplayTransport?

        /// When the replayed answers it served were recorded; nil when live or when none was served.
        func recordedAt() -> Date? { replay?.latestRecordedAt }
    }

    /// The weather sources, as bound.
    let bindings: [ProviderBinding]
    /// The weather sources, with their past forecasts.
    let forecasters: [Forecaster]
    /// The observation source's archive.
    let archive: any ObservationArchive
    /// The transport the archive's request goes over.
    let archiveTransport: any Transport
    /// The cache in front of the archive (live).
    let archiveCache: AnswerCachingTransport?
    /// The archive's recordings (replayed).
    let archiveReplay: ReplayTransport?
    /// The recorders of `--record`, by the folder name their cassettes go to.
    let recorders: [(id: String, recorder: RecordingTransport)]
    let context: CommandContext
    let invocation: Invocation

    /// When the archive's replayed answer was recorded; nil when live.
    var archiveRecordedAt: Date? { archiveReplay?.latestRecordedAt }

    /// Binds the weather sources of `configuration` and the archive of `observations` for one run, whose recordings are dated `asOf`.
    init(context: CommandContext, invocation: Invocation, configuration: Configuration, observations entry: ObservationEntry,
         dataDirectory: String, timeout: Double, asOf: Date) async throws {
        self.context = context
        self.invocation = invocation
        let options = invocation.options
        let live = LazyTransport(make: context.makeLiveTransport)
        let time = context.time
        var recorders: [(id: String, recorder: RecordingTransport)] = []
        let built = try await context.registry.bindings(for: configuration, environment: context.environment, time: time,
                                                        deadline: Date().addingTimeInterval(timeout), live: { live },
                                                        wrapLive: { entry, transport in
            guard options.recordDirectory != nil else { return transport }
            let recorder = RecordingTransport(base: transport, clock: { asOf })
            recorders.append((entry.id, recorder))
            return recorder
        })
        bindings = built.filter { !$0.provider.capabilities.kinds.isDisjoint(with: DataKind.weather) }
        let store = bindings.contains(where: { $0.policy != nil }) || entry.replay == nil ? await context.openStore(invocation, configuration) : nil
        let diagnostics = context.diagnosticLog(invocation)
        let (readCache, offline, maxAge) = (!options.refresh && options.recordDirectory == nil, options.offline, options.maxAgeSeconds)

        forecasters = bindings.map { binding in
            let replayed = binding.provider as? any ReplayingProvider
            let provider = (replayed?.replayed ?? binding.provider) as? any PastForecasting
            guard let policy = binding.policy, replayed == nil else {
                return Forecaster(binding: binding, provider: provider, transport: binding.transport, cache: nil, replay: binding.transport as? ReplayTransport)
            }
            // Each source's request for its past takes a permit from its call ledger, as its weather calls do; a kept answer takes none.
            let limited: any Transport = store.map {
                LedgerTransport(base: binding.transport, binding: binding, ledger: $0, time: time, diagnostics: diagnostics, waitSeconds: timeout)
            } ?? binding.transport
            let cache = AnswerCachingTransport(
                base: limited, cache: store, storageKey: binding.storageKey, name: binding.provider.displayName,
                rules: .init(freshness: FreshnessRule(policy: policy, honoursHTTPExpiry: false, maxAgeSeconds: maxAge), readCache: readCache, offline: offline),
                time: time, diagnostics: diagnostics)
            return Forecaster(binding: binding, provider: provider, transport: cache, cache: cache, replay: nil)
        }

        let base: any Transport
        var replay: ReplayTransport?
        if let directory = entry.replay {
            let replayed: ReplayTransport
            do {
                replayed = ReplayTransport(library: try CassetteLibrary(directory: directory))
            } catch {
                throw ConfigurationError("observations '\(entry.type)': \(error.message)")
            }
            replay = replayed
            base = replayed
        } else if options.recordDirectory != nil {
            let recorder = RecordingTransport(base: live, clock: { asOf })
            recorders.append((entry.type, recorder))
            base = recorder
        } else {
            base = live
        }
        let observer = try await context.registry.observer(entry, environment: context.environment, transport: base, dataDirectory: dataDirectory)
        guard let archive = observer as? any ObservationArchive else {
            throw ConfigurationError("the observations source '\(entry.type)' keeps no archive of past reports to learn from")
        }
        self.archive = archive
        archiveReplay = replay
        if replay == nil {
            // The archive's answer stays fresh as long as the source's current conditions do: reports come every half hour or so.
            var policy = ProviderPolicy(declaredBy: observer)
            policy.forecastTTLSeconds = policy.currentTTLSeconds
            policy.rateLimits = archive.archiveRateLimits
            let binding = ProviderBinding(provider: observer, transport: base, policy: policy, endpoint: archive.archiveEndpoint)
            // Its request takes a permit from the archive's own limits (not the observation source's live ones); a kept answer takes none.
            let limited: any Transport = store.map {
                LedgerTransport(base: base, binding: binding, ledger: $0, time: time, diagnostics: diagnostics, waitSeconds: timeout)
            } ?? base
            let cache = AnswerCachingTransport(
                base: limited, cache: store, storageKey: binding.storageKey, name: "IEM ASOS archive",
                rules: .init(freshness: FreshnessRule(policy: policy, honoursHTTPExpiry: false, maxAgeSeconds: maxAge), readCache: readCache, offline: offline),
                time: time, diagnostics: diagnostics)
            archiveCache = cache
            archiveTransport = cache
        } else {
            archiveCache = nil
            archiveTransport = base
        }
        self.recorders = recorders
    }

    /// Writes what `--record` recorded, one cassette per source.
    func saveRecordings() { context.saveRecordings(recorders, invocation) }
}

/// Where `learn` folds: the user's data folder, or a throwaway folder of its own (`--demo`) removed once read.
struct LearnRecord {
    /// The folder the record is opened in.
    let directory: String
    /// True for a folder made for this run alone.
    let isThrowaway: Bool

    /// A new, empty, private folder under the system's temporary folder.
    static func throwaway(environment: [String: String]) throws(ConfigurationError) -> LearnRecord {
        let parent = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((parent + "/isobar-learn-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw ConfigurationError("cannot make a throwaway folder for the demo's record in \(parent)") }
        return LearnRecord(directory: String(cString: made), isThrowaway: true)
    }

    /// Removes the throwaway folder; the user's is never touched.
    func discard() {
        guard isThrowaway else { return }
        do {
            try FileManager.default.removeItem(atPath: directory)
        } catch {
            // A temporary folder left behind is the system's to clean; the command's result does not depend on it.
        }
    }
}
