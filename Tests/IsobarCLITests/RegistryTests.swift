import Foundation
import IsobarCLI
import IsobarCore
import Testing

/// A provider written outside the package, plugged in through the registry alone.
private struct ToyProvider: WeatherProvider {
    let id: String
    let capabilities: ProviderCapabilities
    var displayName: String { "Toy" }

    func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        var sample = WeatherSample(time: context.time.now(), periodHours: 1)
        sample.temperatureC = 1.5
        return WeatherReport(providerID: id, place: request.place, fetchedAt: context.time.now(), current: sample)
    }
}

/// Finds one imaginary place.
private struct ToyGeocoder: Geocoding {
    var id: String { "toy" }

    func search(_ name: String, limit: Int, context: FetchContext) async throws(ProviderError) -> [Place] {
        guard name.lowercased() == "qwzxqville" else { return [] }
        return [Place(name: "Qwzxqville", countryCode: "ZZ", coordinate: Coordinate(latitude: 31.5, longitude: -24.25)!)]
    }
}

private let toyFactory = ProviderFactory(
    type: "toy", summary: "Toy: a test provider", keyVariable: "TOY_KEY",
    make: { context throws(ProviderError) in
        // Capabilities decided at build time, as a provider whose capabilities come from a handshake would.
        guard context.settings.id != "broken" else { throw ProviderError(.notConfigured, "the toy handshake failed") }
        let capabilities = ProviderCapabilities(kinds: [.current], horizonDays: 0, stepHours: 1, quantities: [.temperature],
                                                requiresAPIKey: false, geocoding: true)
        return ToyProvider(id: context.settings.id, capabilities: capabilities)
    },
    geocoder: { _ in ToyGeocoder() })

private let registry = ProviderRegistry(factories: ProviderRegistry.standard().factories + [toyFactory])

/// A configuration replaying the two bundled providers plus live toys with the given ids.
private func configuration(toys: [String]) throws -> String {
    let directory = temporaryDirectory("registry")
    let toyEntries = toys.map { #"{"id": "\#($0)", "type": "toy"}"# }
    let text = """
        {"providers": [
          {"id": "openweathermap", "type": "openweathermap", "replay": "\(dataDirectory)/cassettes/openweathermap"},
          {"id": "open-meteo", "type": "open-meteo", "replay": "\(dataDirectory)/cassettes/open-meteo"}\(toyEntries.isEmpty ? "" : ",")
          \(toyEntries.joined(separator: ",\n"))
        ]}
        """
    try text.write(toFile: directory + "/config.json", atomically: true, encoding: .utf8)
    return directory + "/config.json"
}

@Suite struct RegistryTests {
    @Test func aToyProviderAddedThroughTheRegistryAloneIsAThirdColumn() async throws {
        let file = try configuration(toys: ["toy"])
        let run = await runCLI(["compare", "Minsk", "--config", file, "--format", "jsonl"], registry: registry)
        let lines = try parseLines(run)
        let toy = try #require(try lines.first { try $0.optionalString("provider") == "toy" })
        #expect(try toy.string("type") == "provider_result")
        #expect(try toy.member("current").double("temperature") == 1.5)
        let consensus = try #require(lines.last)
        #expect(try consensus.member("providers").stringsOrNulls().compactMap { $0 }.sorted() == ["open-meteo", "openweathermap", "toy"])
    }

    @Test func helpListsTheToyType() async throws {
        let run = await runCLI(["--help"], registry: registry)
        #expect(run.stdout.contains("toy"))
        #expect(run.stdout.contains("Toy: a test provider"))
    }

    @Test func aFactoryThatFailsIsAConfigurationErrorNamingTheProvider() async throws {
        let file = try configuration(toys: ["broken"])
        let run = await runCLI(["compare", "Minsk", "--config", file], registry: registry)
        #expect(run.code == 78)
        #expect(run.stderr.contains("provider 'broken' cannot be set up: the toy handshake failed"))
        #expect(run.stdout.isEmpty)
    }

    @Test func aNameNoGazetteerKnowsIsFoundByTheToyGeocoder() async throws {
        let file = try configuration(toys: ["toy"])
        let run = await runCLI(["now", "Qwzxqville", "--config", file, "--format", "jsonl"], registry: registry)
        let lines = try parseLines(run)
        let first = try #require(lines.first)
        #expect(try first.member("place").string("name") == "Qwzxqville")
    }

    @Test func theDefaultConfigurationHasOneProviderPerRegisteredType() async throws {
        let defaults = registry.defaultConfiguration()
        #expect(defaults.providers.map(\.type) == ["openweathermap", "open-meteo", "met-norway", "toy"])
        #expect(registry.keyVariable(defaults.providers[0]) == "OPENWEATHERMAP_API_KEY")
        #expect(registry.keyVariable(defaults.providers[3]) == "TOY_KEY")
        #expect(registry.keyVariable(defaults.providers[1]) == nil)
        #expect(registry.keyVariable(defaults.providers[2]) == nil)
    }
}
