import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarStore

extension CommandContext {
    /// Asks the configured observation source what the weather at `place` is now, through an engine of its own (cached and
    /// rate-limited like any provider), and archives the answer. Only for live commands with an archive; no answer is
    /// nothing to archive, never the command's failure. Returns true when an observation was archived. `verbose` says so on stderr.
    @discardableResult
    func observe(_ place: Place, _ setup: WeatherSetup, verbose: Bool = false) async -> Bool {
        guard let entry = setup.configuration.observations, setup.configuration.archiveDays > 0, let store = setup.store,
              let dataDirectory = DataDirectory.locate(environment: environment), let directory = userDataDirectory() else { return false }
        if verbose {
            errors.write("isobar: note: observations: asking \(entry.baseURL?.host ?? "aviationweather.gov") for the METAR near \(place.name), "
                + "for the forecast archive\n")
        }
        // Its station list is read only when the observation is not in the cache: most commands within half an hour of the
        // last need no station.
        let provider: any WeatherProvider
        do {
            provider = try await registry.observer(entry, environment: environment, transport: setup.live, dataDirectory: dataDirectory)
        } catch {
            warn("no observation was archived: \(error.message)")
            return false
        }
        let binding = ProviderBinding(provider: provider, transport: setup.live, policy: ProviderPolicy(declaredBy: provider))
        // The command's deadline bounds the observation too.
        var options = EngineOptions()
        options.timeoutSeconds = setup.options.timeoutSeconds
        let engine = Engine(consensus: Consensus(), bindings: [binding], storage: EngineStorage(store), options: options, time: time,
                            diagnostics: setup.diagnostics, taskExecutor: taskExecutor, racesOnTaskExecutor: taskExecutor != nil)
        var observed: WeatherReport?
        for await event in engine.run(WeatherRequest(place: place, kinds: [.current])) {
            if case .result(_, let result) = event { observed = result.report }
        }
        guard let report = observed, let current = report.current else { return false }
        do {
            let archive = try await UserDataStore.open(directory: directory)
            try await archive.archiveObservation(current, source: entry.type, station: provider.observationStation(of: report) ?? "?", place: place)
            return true
        } catch {
            warn("the forecast archive was not updated: \(error.message)")
            return false
        }
    }

    /// Says, under `verbose`, that the observation step was skipped because no forecast came (nothing to verify it against).
    func noteObservationSkipped(_ setup: WeatherSetup, verbose: Bool) {
        guard verbose, setup.configuration.observations != nil, setup.configuration.archiveDays > 0, setup.store != nil else { return }
        errors.write("isobar: note: observations: not asked, as no provider answered (nothing to verify an observation against)\n")
    }

    /// Where no station observed the place (none in range, or none reporting), archives one live provider's own recent
    /// "current" values as a labelled proxy (source `proxy`, the provider as its station), so that verification can go
    /// on, on a basis of its own: the first provider in the configuration's order whose fresh live answer has a current
    /// sample younger than `proxyMaxAgeSeconds`. Only when observations are configured and archiving is on.
    func archiveProxyObservation(_ reports: [WeatherReport], place: Place, _ setup: WeatherSetup) async {
        guard setup.configuration.observations != nil, setup.configuration.archiveDays > 0, let directory = userDataDirectory(),
              let (provider, current) = Self.proxyObservation(reports, order: setup.bindings.map(\.provider.id), now: time.now())
        else { return }
        do {
            let archive = try await UserDataStore.open(directory: directory)
            try await archive.archiveObservation(current, source: ArchivedObservation.proxySource, station: provider, place: place)
        } catch {
            warn("the forecast archive was not updated: \(error.message)")
        }
    }

    /// A provider's "current" is a proxy for an observation only when it is at most this old, in seconds.
    static let proxyMaxAgeSeconds = 5_400.0

    /// The provider and current sample that stand in for an observation: the first, in `order`, of the fresh live answers
    /// with a current sample at most `proxyMaxAgeSeconds` from `now`.
    static func proxyObservation(_ reports: [WeatherReport], order: [String], now: Date) -> (String, WeatherSample)? {
        let usable = reports.filter { report in
            guard report.source == .live, report.freshness == .fresh, let current = report.current else { return false }
            return abs(now.timeIntervalSince(current.time)) <= proxyMaxAgeSeconds
        }
        let ranked = usable.sorted { (order.firstIndex(of: $0.providerID) ?? .max) < (order.firstIndex(of: $1.providerID) ?? .max) }
        guard let report = ranked.first, let current = report.current else { return nil }
        return (report.providerID, current)
    }
}
