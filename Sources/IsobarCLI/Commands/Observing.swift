import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarStore
import METAR

extension IsobarCommandLine {
    /// Asks the configured observation source what the weather at `place` is now, through an engine of its own (cached and
    /// rate-limited like any provider), and archives the answer. Only for live commands with an archive; no answer is
    /// nothing to archive, never the command's failure.
    func observe(_ place: Place, _ setup: WeatherSetup) async {
        guard let entry = setup.configuration.observations, setup.configuration.archiveDays > 0, let store = setup.store,
              let dataDirectory = DataDirectory.locate(environment: environment), let directory = userDataDirectory() else { return }
        // Read only when the observation is not in the cache: most commands within half an hour of the last need no station.
        let path = dataDirectory + "/stations/metar-stations.tsv"
        var configuration = METARProvider.Configuration(stations: { () throws(METARStationsError) in try METARStations(path: path) })
        if let url = entry.baseURL { configuration.baseURL = url }
        if let distance = entry.maxDistanceKilometres { configuration.maxDistanceKilometres = distance }
        let provider = METARProvider(configuration: configuration)
        let binding = ProviderBinding(provider: provider, transport: setup.live, policy: ProviderPolicy(declaredBy: provider))
        let engine = Engine(bindings: [binding], storage: EngineStorage(store), options: EngineOptions(), time: time,
                            diagnostics: setup.diagnostics)
        var observed: WeatherReport?
        for await event in engine.run(WeatherRequest(place: place, kinds: [.current])) {
            if case .result(_, let result) = event { observed = result.report }
        }
        guard let report = observed, let current = report.current else { return }
        do {
            let archive = try await UserDataStore.open(directory: directory)
            try await archive.archiveObservation(current, source: "metar", station: METARProvider.station(of: report) ?? "?", place: place)
        } catch {
            warn("the forecast archive was not updated: \(error.message)")
        }
    }
}
