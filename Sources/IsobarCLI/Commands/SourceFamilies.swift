import FoundationEssentials
import IsobarCore
import IsobarEngine

/// The one family rule the record is folded and read with, in live commands, `verify` and `archive import` alike: each
/// configured source's declared upstream (`SourceIdentity.family`, which an adapter derives from its endpoint), by
/// source id. Sources of different upstreams are independent unless the record finds their errors correlated.
enum SourceFamilies {
    /// The families of the sources of `bindings`.
    static func of(_ bindings: [ProviderBinding]) -> [String: String] {
        Dictionary(bindings.flatMap(\.provider.sources).map { ($0.id, $0.family) }, uniquingKeysWith: { first, _ in first })
    }
}

extension CommandContext {
    /// The families of the configured providers, built without the network (a plug-in is still asked to `describe`
    /// itself); empty (a note with `--verbose`) when the configuration cannot be built, which no live command could use
    /// either, so no record is folded with another rule.
    func configuredFamilies(_ parsed: Invocation) async -> [String: String] {
        do throws(ConfigurationError) {
            let configuration = try loadConfiguration(parsed)
            let bindings = try await registry.bindings(for: configuration, environment: environment, time: time,
                                                       deadline: Date().addingTimeInterval(parsed.options.timeoutSeconds ?? EngineOptions().timeoutSeconds),
                                                       live: { NoNetworkTransport() })
            return SourceFamilies.of(bindings)
        } catch {
            if parsed.options.verbose { errors.write("isobar: note: each source is its own family: \(error.message)\n") }
            return [:]
        }
    }
}
