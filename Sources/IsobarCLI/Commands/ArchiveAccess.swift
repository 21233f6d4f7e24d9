import IsobarCore
import IsobarStore

/// What every `archive` action starts from: the configuration and the archive in the user's data file.
struct ArchiveAccess {
    /// The configuration in effect.
    let configuration: Configuration
    /// The user's data file, which holds the archive.
    let store: UserDataStore

    /// Loads the configuration and opens the archive for the action `named`, once its arguments are right: one FILE when it
    /// `takesFile`, else none.
    static func open(_ context: CommandContext, _ invocation: Invocation, for named: String, takesFile: Bool = false) async throws -> ArchiveAccess {
        let configuration = try context.loadConfiguration(invocation)
        guard let directory = context.userDataDirectory() else {
            throw ConfigurationError("no folder for the forecast archive: set XDG_DATA_HOME or HOME")
        }
        if takesFile, invocation.positionals.count != 2 {
            throw UsageError("archive \(named) needs a FILE (or - for stdin): isobar archive \(named) FILE")
        }
        if !takesFile, invocation.positionals.count > 1 { throw UsageError("archive \(named) takes no file; only import does") }
        return ArchiveAccess(configuration: configuration, store: try await UserDataStore.open(directory: directory))
    }
}
