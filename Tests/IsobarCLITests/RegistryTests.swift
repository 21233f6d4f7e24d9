import Foundation
import Synchronization
import IsobarCLI
import IsobarCore
import Testing

/// A provider written outside the package, plugged in through the registry alone, with an option of its own.
private struct ToyProvider: WeatherProvider {
    let id: String
    let capabilities: ProviderCapabilities
    /// Its `offset_c` option: added to the temperature it reports.
    var offset = 0.0
    var displayName: String { "Toy" }

    func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        var sample = WeatherSample(time: context.time.now(), periodHours: 1)
        sample.temperatureC = 1.5 + offset
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

/// The toy's own options, which only it reads.
private struct ToyOptions: Sendable {
    var offset: Double
}

private let toyFactory = ProviderFactory(
    type: "toy", summary: "Toy: a test provider", keyVariable: "TOY_KEY", optionKeys: ["offset_c"],
    readOptions: { source throws(OptionError) in
        try OptionError.reading {
            let offset = try source.entry.optionalDouble("offset_c") ?? 0
            guard (-10...10).contains(offset) else { throw OptionError("\(source.entry.path).offset_c must be -10 to 10") }
            return ProviderOptions(ToyOptions(offset: offset))
        }
    },
    make: { context throws(ProviderError) in
        // Capabilities decided at build time, as a provider whose capabilities come from a handshake would.
        guard context.settings.id != "broken" else { throw ProviderError(.notConfigured, "the toy handshake failed") }
        let capabilities = ProviderCapabilities(kinds: [.current], horizonDays: 0, stepHours: 1, quantities: [.temperature],
                                                requiresAPIKey: false, geocoding: true)
        return ToyProvider(id: context.settings.id, capabilities: capabilities,
                           offset: context.settings.options.value(as: ToyOptions.self)?.offset ?? 0)
    },
    geocoder: { _ in ToyGeocoder() })

private let registry = ProviderRegistry.standard().adding(toyFactory)

/// A configuration replaying the two bundled providers plus live toys with the given ids, each with `toyKeys` added.
private func configuration(toys: [String], toyKeys: String = "") throws -> String {
    let directory = temporaryDirectory("registry")
    let toyEntries = toys.map { #"{"id": "\#($0)", "type": "toy"\#(toyKeys)}"# }
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

    @Test func theToysOwnOptionReachesOnlyTheToy() async throws {
        let file = try configuration(toys: ["toy"], toyKeys: #", "offset_c": 2"#)
        let lines = try parseLines(await runCLI(["compare", "Minsk", "--config", file, "--format", "jsonl"], registry: registry))
        let toy = try #require(try lines.first { try $0.optionalString("provider") == "toy" })
        #expect(try toy.member("current").double("temperature") == 3.5)
    }

    @Test func aBadValueOfTheToysOptionIsAConfigurationErrorNamingItsPath() async throws {
        let file = try configuration(toys: ["toy"], toyKeys: #", "offset_c": 40"#)
        let run = await runCLI(["compare", "Minsk", "--config", file], registry: registry)
        #expect(run.code == 78)
        #expect(run.stderr.contains("$.providers[2].offset_c must be -10 to 10"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test func theToysOptionOnAnotherTypeIsAnUnknownKeyNamingThatTypesKeys() async throws {
        let file = temporaryDirectory("registry") + "/config.json"
        try #"{"providers": [{"type": "open-meteo", "offset_c": 1}]}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let run = await runCLI(["compare", "Minsk", "--config", file], registry: registry)
        #expect(run.code == 78)
        #expect(run.stderr.contains("unknown key 'offset_c' at $.providers[0] (type open-meteo takes, besides the common keys, only models, previous_runs_url)"),
                "\(run.stderr)")
        // Without the toy in the registry, its key is unknown everywhere.
        let toyFile = temporaryDirectory("registry") + "/toy.json"
        try #"{"providers": [{"type": "met-norway", "contact": "a@example.org", "offset_c": 1}]}"#.write(toFile: toyFile, atomically: true, encoding: .utf8)
        let plain = await runCLI(["compare", "Minsk", "--config", toyFile])
        #expect(plain.stderr.contains("unknown key 'offset_c'") && plain.stderr.contains("only contact"), "\(plain.stderr)")
    }

    @Test func theToysOptionIsParsedByTheToysFactoryAloneAndReadByNoOtherProvider() throws {
        let file = try configuration(toys: ["toy", "toy-2"], toyKeys: #", "offset_c": -2.5"#)
        let readBy = Mutex<[String]>([])
        let recording = ProviderFactory(
            type: "toy", summary: toyFactory.summary, optionKeys: toyFactory.optionKeys,
            readOptions: { source throws(OptionError) in
                let id = (try? source.entry.optionalString("id")) ?? "?"
                readBy.withLock { $0.append(id) }
                return try toyFactory.readOptions(source)
            },
            make: toyFactory.make)
        let loaded = try Configuration.load(path: file, registry: ProviderRegistry.standard().adding(recording))
        // Every toy entry, and nothing but toy entries, went through the toy's reader.
        #expect(readBy.withLock { $0 } == ["toy", "toy-2"])
        for entry in loaded.providers {
            let settings = registry.settings(entry, [:])
            let toy = settings.options.value(as: ToyOptions.self)
            #expect((toy != nil) == (entry.type == "toy"), "\(entry.id)")
            if entry.type == "toy" { #expect(toy?.offset == -2.5) }
        }
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
