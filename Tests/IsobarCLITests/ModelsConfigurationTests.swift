import IsobarCLI
import IsobarCore
import Testing

/// Parses configuration text.
private func parse(_ text: String) throws(ConfigurationError) -> Configuration {
    try Configuration.parse(Array(text.utf8), file: "config.json", directory: "/tmp")
}

@Suite("Configuration: models and family_weight")
struct ModelsConfigurationTests {
    @Test("an open-meteo entry lists its models, each a source of its provider; family_weight defaults to one")
    func models() async throws {
        let configuration = try parse(#"{"providers":[{"type":"open-meteo","models":["ecmwf_ifs025","gfs_seamless"]}]}"#)
        let bindings = try await ProviderRegistry.standard().bindings(for: configuration, environment: [:], live: { NoNetworkTransport() })
        #expect(bindings.first?.provider.sources.map(\.id) == ["open-meteo/ecmwf_ifs025", "open-meteo/gfs_seamless"])
        #expect(configuration.familyWeight == .one)
    }

    @Test("family_weight is one, each or a number of at least 1", arguments: [
        (#""one""#, FamilyWeight.one), (#""each""#, .each), ("2", .atMost(2)), ("1.5", .atMost(1.5)),
    ])
    func familyWeight(text: String, expected: FamilyWeight) throws {
        #expect(try parse(#"{"family_weight":\#(text),"providers":[]}"#).familyWeight == expected)
    }

    @Test("bad models and family weights are one-line errors", arguments: [
        (#"{"providers":[{"type":"met-norway","models":["a"]}]}"#, "unknown key 'models' at $.providers[0] (type met-norway takes, besides the common keys, only contact)"),
        (#"{"providers":[{"type":"openweathermap","models":["a"]}]}"#, "(type openweathermap takes only the common keys)"),
        (#"{"providers":[{"type":"open-meteo","models":[]}]}"#, "1 to 16 models"),
        (#"{"providers":[{"type":"open-meteo","models":["GFS"]}]}"#, "not a model name"),
        (#"{"providers":[{"type":"open-meteo","models":["a","a"]}]}"#, "lists a model twice"),
        (#"{"providers":[{"type":"open-meteo","models":"gfs"}]}"#, "models"),
        (#"{"family_weight":"some","providers":[]}"#, "not 'some'"),
        (#"{"family_weight":0.5,"providers":[]}"#, "at least 1"),
    ])
    func errors(text: String, fragment: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message.contains(fragment), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }
}
