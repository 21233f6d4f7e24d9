import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarPlaces
import IsobarStore

extension CommandContext {
    /// Where the user's cities and home live: `$XDG_DATA_HOME/isobar`, else `~/.local/share/isobar`; never the cache.
    func userDataDirectory() -> String? {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/isobar" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/share/isobar"
    }

    /// The store of the user's cities and home. Any failure ends the command with an error: never a stand-in in memory.
    /// Opening it the first time imports, once, what an older Isobar kept in the default cache (never `--cache-dir`'s).
    func userData(_ configuration: Configuration) async throws -> UserDataStore {
        guard let directory = userDataDirectory() else {
            throw ConfigurationError("no folder for your cities and home: set XDG_DATA_HOME or HOME")
        }
        let store = try await UserDataStore.open(directory: directory)
        guard let cache = defaultCacheDirectory(configuration) else { return store }
        let oldFile = cache + "/isobar.sqlite"
        switch try await store.importFromCache(oldFile, now: time.now()) {
        case .imported(let cities, let home) where cities > 0 || home:
            let what = [cities > 0 ? "\(cities) \(cities == 1 ? "city" : "cities")" : nil, home ? "your home" : nil]
                .compactMap { $0 }.joined(separator: " and ")
            errors.write("isobar: note: moved \(what) from the cache (\(oldFile)) to \(store.path), where clearing the cache cannot lose them\n")
        case .unreadable(let reason):
            warn("\(reason); will try again next time")
        case .imported, .doneBefore:
            break
        }
        return store
    }

    /// The first run's cities, from the bundled places; without the bundled data, a configuration error saying where it was looked for
    /// (so a misplaced binary never uses up the one-time seeding).
    func seedCities() throws(ConfigurationError) -> [Place] {
        guard DataDirectory.locate(environment: environment) != nil else {
            throw ConfigurationError(DataDirectory.notFoundMessage(environment: environment))
        }
        guard let bundled = try? places() else { return [] }
        return ["Minsk", "Moscow"].compactMap { bundled.lookup($0) }
    }
}
