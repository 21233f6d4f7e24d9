import FoundationEssentials
import IsobarStore

extension CommandContext {
    /// The configuration a command uses: `--config`, `--demo`, the user's file, the bundled default, or built-in defaults.
    /// Plug-in programs on `PATH` are never added here: only entries in the configuration run (see `providers enable`).
    func loadConfiguration(_ parsed: Invocation) throws(ConfigurationError) -> Configuration {
        let dataDirectory = DataDirectory.locate(environment: environment)
        if let path = parsed.options.configFile {
            return try Configuration.load(path: path, registry: registry)
        }
        if parsed.options.demo {
            guard let dataDirectory, DataDirectory.hasDemo(environment: environment) else {
                throw ConfigurationError(DataDirectory.notFoundMessage(environment: environment))
            }
            return try Configuration.load(path: dataDirectory + "/demo.json", registry: registry)
        }
        // Present counts a file that exists or a link that leads nowhere (a loop, a missing target): that is an error, not
        // a reason to fall back to the bundled defaults.
        if let user = userConfigurationPath(), ConfigurationFile.isPresent(user) {
            return try Configuration.load(path: user, registry: registry)
        }
        if let dataDirectory, ConfigurationFile.isPresent(dataDirectory + "/isobar.json") {
            return try Configuration.load(path: dataDirectory + "/isobar.json", registry: registry)
        }
        return registry.defaultConfiguration()
    }

    /// The user's configuration file, `$XDG_CONFIG_HOME/isobar/config.json` (or `~/.config/isobar/config.json`), whether
    /// or not it exists; nil when neither variable is set.
    func userConfigurationPath() -> String? {
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["HOME"].map { $0 + "/.config" }
        return configHome.map { $0 + "/isobar/config.json" }
    }

    /// Where the user sets the options of `configuration`'s entries, for messages: the file read, or, when the bundled or
    /// built-in defaults were used, the user's file to be written (nil when no home is known).
    func userFile(for configuration: Configuration) -> (path: String, exists: Bool)? {
        guard let file = configuration.file, file != bundledConfigurationPath() else { return userConfigurationPath().map { ($0, false) } }
        return (file, true)
    }

    /// The bundled default configuration, `isobar.json` in the data folder, when there is one.
    func bundledConfigurationPath() -> String? {
        guard let dataDirectory = DataDirectory.locate(environment: environment) else { return nil }
        let path = dataDirectory + "/isobar.json"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Where the cache lives: `--cache-dir`, the configuration's `cache_dir`, `$XDG_CACHE_HOME/isobar`, `~/.cache/isobar`.
    func cacheDirectory(_ parsed: Invocation, _ configuration: Configuration) -> String? {
        parsed.options.cacheDirectory ?? defaultCacheDirectory(configuration)
    }

    /// Where the cache lives without `--cache-dir`: the configuration's `cache_dir`, `$XDG_CACHE_HOME/isobar`, `~/.cache/isobar`.
    func defaultCacheDirectory(_ configuration: Configuration) -> String? {
        if let directory = configuration.cacheDirectory { return directory }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/isobar" }
        return environment["HOME"].map { $0 + "/.cache/isobar" }
    }

    /// Opens the store, warning (never failing) when only memory can be used; with `acceptsReadOnly`, a file that can only
    /// be read is used as it is (for a command that only reads it).
    func openStore(_ parsed: Invocation, _ configuration: Configuration, acceptsReadOnly: Bool = false) async -> Store? {
        guard let directory = cacheDirectory(parsed, configuration) else {
            warn("no cache directory (set XDG_CACHE_HOME or HOME, or pass --cache-dir); nothing is cached")
            return inMemoryStore()
        }
        do {
            return try await openCacheFile(directory, options: Store.Options(acceptsReadOnly: acceptsReadOnly, heldWakeups: heldWakeups),
                                           warn: warn)
        } catch {
            warn("cannot open the cache in \(directory) (\(error.message)); nothing is cached")
            return nil
        }
    }

    /// Opens the cache file in `directory`, noted among the files the command finishes as it ends (see `OpenedCaches`):
    /// every command opens the cache file through here.
    func openCacheFile(_ directory: String, options: Store.Options = Store.Options(),
                       warn: @escaping @Sendable (String) -> Void) async throws(StoreError) -> Store {
        let store = try await Store.open(directory: directory, options: options, warn: warn)
        openedCaches.add(store)
        return store
    }

    private func inMemoryStore() -> Store? {
        do {
            return try Store.inMemory()
        } catch {
            warn("cannot make an in-memory cache (\(error.message)); nothing is cached")
            return nil
        }
    }
}
