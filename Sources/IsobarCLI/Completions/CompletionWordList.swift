import FoundationEssentials
import IsobarCore
import IsobarStore

extension CommandContext {
    /// The words offered for `kind` while completing: quick, and silent on any failure (a shell is waiting).
    /// Places: home, then the saved cities (the first run's two when there is no file yet, which is not created), then the
    /// places asked about lately by name, each once. Providers: every id output prints for the configured entries.
    func completionWords(_ kind: CompletionWords) async -> [String] {
        switch kind {
        case .providers:
            guard let configuration = try? loadConfiguration(Invocation(command: Commands.completions)) else { return [] }
            return SourceReference.printedIDs(configuration)
        case .places:
            var names: [String] = []
            if let directory = userDataDirectory() {
                if FileManager.default.fileExists(atPath: directory + "/" + UserDataStore.fileName),
                   let store = try? await UserDataStore.open(directory: directory) {
                    if let home = try? await store.home() { names.append(home.name) }
                    if let cities = try? await store.cities(seed: (try? seedCities()) ?? [], now: time.now()) { names += cities.map(\.name) }
                } else {
                    names += ((try? seedCities()) ?? []).map(\.name)
                }
                names += RecentPlaces(directory: directory).names()
            }
            var seen = Set<String>()
            return names.filter { seen.insert($0.lowercased()).inserted }
        }
    }

    /// Remembers a place asked about by name (not by coordinates) for completion, see `RecentPlaces`: as the place is named
    /// when the text was its name in other letter case or a typo, else as typed (`Paris, Texas` stays that).
    func rememberPlace(_ text: String, _ resolution: Resolution) {
        guard resolution.source != "coordinates", let directory = userDataDirectory() else { return }
        let typed = text.trimmingSpaces()
        let named = resolution.source == "gazetteer (typo)" || typed.lowercased() == resolution.place.name.lowercased()
        RecentPlaces(directory: directory).remember(named ? resolution.place.name : typed)
    }
}
