import FoundationEssentials
import IsobarCore

extension ExecProvider {
    /// How Isobar builds a provider from an outside program (`"type": "exec", "command": [...]`).
    ///
    /// Only a missing command is a configuration error; a program that cannot be found or described becomes a provider
    /// whose every fetch fails with that reason, so that the others still answer.
    public static let factory = ProviderFactory(
        type: "exec", summary: "an outside program in any language speaking the exec protocol (docs/plugin-protocol.md)", keyVariable: nil,
        optionKeys: ExecOptions.keys, readOptions: ExecOptions.read,
        make: { context throws(ProviderError) in
            let settings = context.settings
            guard let command = settings.options.value(as: ExecOptions.self)?.command, !command.isEmpty else {
                throw ProviderError(.notConfigured, "an exec provider needs a \"command\", e.g. [\"python3\", \"provider.py\"]")
            }
            do throws(ProviderError) {
                let program = try ExecProgram(command: command, providerID: settings.id, environment: context.environment,
                                              directory: FileManager.default.currentDirectoryPath)
                var logged = program
                logged.log = context.log
                let description = try await DescriptionCache(environment: context.environment).description(of: logged, deadline: context.deadline)
                // Keys only by the user's word: the variable the program declares is a request, never read here; the key is
                // the entry's own (`api_key`, or the variable its `api_key_env` names), and only for a program that asked.
                let key = description.keyVariable == nil || settings.isReplay ? nil : settings.apiKey
                return ExecProvider(id: settings.id, program: logged, description: description, baseURL: settings.baseURL, key: key,
                                    grantedVariable: settings.apiKeyVariable)
            } catch {
                context.log("\(settings.id): \(error.message)")
                return BrokenExecProvider(id: settings.id, failure: error)
            }
        })
}

/// An exec provider whose program cannot be used: every fetch fails with the reason, and nothing else is affected.
public struct BrokenExecProvider: WeatherProvider {
    /// Configured id.
    public let id: String
    /// Why it cannot be used.
    public let failure: ProviderError

    /// Its id, as the program gave no name.
    public var displayName: String { id }
    /// Nothing is known of it; it claims every kind so that it is asked and its failure is shown.
    public var capabilities: ProviderCapabilities {
        ProviderCapabilities(kinds: DataKind.weather, horizonDays: 0, stepHours: 1, quantities: [], requiresAPIKey: false, geocoding: false)
    }

    /// The reason.
    public func unusableReason(for request: WeatherRequest?) -> ProviderError? { failure }

    /// Fails with the reason.
    public func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        throw failure
    }
}
