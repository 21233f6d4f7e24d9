import Exec

extension Configuration {
    /// The configuration with a provider entry (type `exec`) for each plug-in program found on `PATH` or in the user's
    /// plug-in folder whose name no configured entry uses; the warnings say which programs are shadowed.
    func addingDiscoveredPrograms(environment: [String: String]) -> (configuration: Configuration, warnings: [String]) {
        let found = ExecDiscovery.discover(environment: environment)
        var copy = self
        var warnings = found.shadowed.map { "plug-in \($0.program.path) is shadowed by \($0.usedInstead)" }
        for program in found.programs {
            if let entry = providers.first(where: { $0.id == program.name }) {
                if entry.command?.first != program.path {
                    warnings.append("plug-in \(program.path) is shadowed by the configured provider '\(entry.id)'")
                }
                continue
            }
            copy.providers.append(ProviderEntry(id: program.name, type: "exec", replay: nil, enabled: true, command: [program.path]))
        }
        return (copy, warnings)
    }
}
