import FixtureReplay
import FoundationEssentials
import IsobarCore
import IsobarTestKit
import OpenMeteo
import OpenWeatherMap
import Testing

/// One interaction of a cassette, as JSON text.
private func interaction(_ url: String, method: String? = nil, status: Int = 200, response extra: String = #""body":"ok""#,
                         recordedAt: String? = nil) -> String {
    let methodText = method.map { #""method":"\#($0)","# } ?? ""
    let time = recordedAt.map { #","recorded_at":"\#($0)""# } ?? ""
    return #"{"request":{\#(methodText)"url":"\#(url)"},"response":{"status":\#(status),\#(extra)}\#(time)}"#
}

/// A cassette file's text.
private func cassette(_ interactions: [String], format: String = "isobar-cassette", version: String = "1",
                      recordedAt: String? = "2026-11-28T09:00:00Z") -> String {
    let time = recordedAt.map { #""recorded_at":"\#($0)","# } ?? ""
    return #"{"format":"\#(format)","version":\#(version),\#(time)"interactions":[\#(interactions.joined(separator: ","))]}"#
}

private func parse(_ text: String, file: String = "test.json") throws(ProviderError) -> [Interaction] {
    try Cassette.interactions(parsing: Array(text.utf8), file: file)
}

private func library(_ urls: [String], file: String = "recorded.json") throws -> CassetteLibrary {
    CassetteLibrary(interactions: try parse(cassette(urls.map { interaction($0) }), file: file), origin: "test cassettes")
}

private func get(_ url: String, secrets: Set<String> = []) throws -> HTTPRequest {
    HTTPRequest(url: try #require(RequestURL(string: url)), secretQueryNames: secrets)
}

@Suite("Cassette files")
struct CassetteFileTests {
    @Test("a cassette's interactions are read with their status, headers, body and time")
    func reads() throws {
        let text = cassette([
            interaction("https://api.example.org/a?x=1", response: #""headers":[["Content-Type","application/json"],["Retry-After","5"]],"body":"{}""#),
            interaction("https://api.example.org/b", method: "POST", status: 429, recordedAt: "2026-11-28T12:00:00+03:00"),
        ])
        let interactions = try parse(text, file: "two.json")
        #expect(interactions.count == 2)
        #expect(interactions[0].method == "GET")
        #expect(interactions[0].url.path == "/a")
        #expect(interactions[0].response.status == 200)
        #expect(interactions[0].response.header("retry-after") == "5")
        #expect(interactions[0].response.body == Array("{}".utf8))
        #expect(interactions[0].recordedAt == Fixtures.recordedAt)
        #expect(interactions[0].file == "two.json")
        #expect(interactions[1].method == "POST")
        #expect(interactions[1].response.status == 429)
        #expect(interactions[1].response.body == Array("ok".utf8))
        // 12:00 at +03:00 is 09:00Z: the interaction's own time wins over the cassette's.
        #expect(interactions[1].recordedAt == Fixtures.recordedAt)
    }

    @Test("body_base64 is decoded")
    func base64Body() throws {
        let text = cassette([interaction("https://x.example/a", response: #""body_base64":"eyJvayI6dHJ1ZX0=""#)])
        #expect(try parse(text)[0].response.body == Array(#"{"ok":true}"#.utf8))
    }

    @Test("a cassette of another format is refused")
    func wrongFormat() throws {
        let error = try #require(caught { try parse(cassette([], format: "vcr"), file: "other.json") })
        #expect(error.code == .badResponse(path: "$.format"))
        #expect(error.message.contains("other.json"))
        let missing = try #require(caught { try parse(#"{"version":1,"interactions":[]}"#) })
        #expect(missing.code == .badResponse(path: "$.format"))
    }

    @Test("a cassette of another version is refused, naming both versions")
    func wrongVersion() throws {
        let error = try #require(caught { try parse(cassette([], version: "2"), file: "future.json") })
        #expect(error.code == .badResponse(path: "$.version"))
        #expect(error.message.contains("future.json"))
        #expect(error.message.contains("2"))
        #expect(error.message.contains("1"))
    }

    @Test("an interaction without any recorded_at is refused")
    func missingRecordedAt() throws {
        let error = try #require(caught { try parse(cassette([interaction("https://x.example/a")], recordedAt: nil), file: "undated.json") })
        #expect(error.code == .badResponse(path: "$.interactions[0].recorded_at"))
        #expect(error.message.contains("undated.json"))
        #expect(error.message.contains("recorded_at"))
    }

    @Test("a recorded_at without a zone is refused")
    func zonelessRecordedAt() throws {
        let error = try #require(caught { try parse(cassette([interaction("https://x.example/a")], recordedAt: "2026-11-28T09:00:00")) })
        #expect(error.code == .badResponse(path: "$.interactions[0].recorded_at"))
    }

    @Test("bad base64 is refused with its path")
    func badBase64() throws {
        let text = cassette([interaction("https://x.example/a"), interaction("https://x.example/b", response: #""body_base64":"not base64!""#)])
        let error = try #require(caught { try parse(text, file: "broken.json") })
        #expect(error.code == .badResponse(path: "$.interactions[1].response.body_base64"))
        #expect(error.message.contains("broken.json"))
        #expect(error.message.contains("base64"))
    }

    @Test("a URL that is not http(s) is refused with its path")
    func badURL() throws {
        let error = try #require(caught { try parse(cassette([interaction("ftp://x.example/a")])) })
        #expect(error.code == .badResponse(path: "$.interactions[0].request.url"))
    }

    @Test("text that is not JSON is refused at $")
    func notJSON() throws {
        let error = try #require(caught { try parse("format: isobar-cassette", file: "yaml.json") })
        #expect(error.code == .badResponse(path: "$"))
        #expect(error.message.contains("yaml.json"))
    }

    @Test("a missing status is refused with its path")
    func missingStatus() throws {
        let text = #"{"format":"isobar-cassette","version":1,"recorded_at":"2026-11-28T09:00:00Z","interactions":[{"request":{"url":"https://x.example/"},"response":{"body":""}}]}"#
        let error = try #require(caught { try parse(text) })
        #expect(error.code == .badResponse(path: "$.interactions[0].response.status"))
    }
}

@Suite("Cassette library")
struct CassetteLibraryTests {
    @Test("query order does not matter")
    func orderInsensitive() throws {
        let recorded = try library(["https://api.example.org/data?lat=53.9&lon=27.5667&units=metric"])
        let hit = try recorded.match(try get("https://api.example.org/data?units=metric&lon=27.5667&lat=53.9"))
        #expect(hit.url.path == "/data")
    }

    @Test("secret parameters are ignored, whether recorded or sent", arguments: [
        ("https://x.example/d?lat=1", "https://x.example/d?lat=1&appid=NEW", Set<String>()),
        ("https://x.example/d?lat=1&appid=OLD", "https://x.example/d?appid=NEW&lat=1", Set<String>(["appid"])),
        ("https://x.example/d?lat=1&apikey=OLD", "https://x.example/d?lat=1", Set<String>()),
        ("https://x.example/d?lat=1", "https://x.example/d?lat=1&signature=abc", Set<String>(["signature"])),
    ])
    func secretsIgnored(recordedURL: String, sentURL: String, secrets: Set<String>) throws {
        let recorded = try library([recordedURL])
        #expect(caught { try recorded.match(try get(sentURL, secrets: secrets)) } == nil)
    }

    @Test("numeric values match by value", arguments: [
        ("lat=53.90&lon=-0.12570", "lat=53.9&lon=-0.1257"),
        ("lat=53.9&lon=27", "lat=53.900&lon=27.0"),
        ("forecast_days=16", "forecast_days=16.0"),
    ])
    func numericValues(recordedQuery: String, sentQuery: String) throws {
        let recorded = try library(["https://x.example/d?\(recordedQuery)"])
        #expect(caught { try recorded.match(try get("https://x.example/d?\(sentQuery)")) } == nil)
    }

    @Test("different values, names, paths or methods do not match", arguments: [
        "https://x.example/d?lat=53.91&lon=27.5667",
        "https://x.example/d?lat=53.9",
        "https://x.example/d?lat=53.9&lon=27.5667&units=imperial",
        "https://x.example/e?lat=53.9&lon=27.5667",
        "https://x.example/d?lat=53.9&lon=27.5667&timezone=AUTO",
    ])
    func mismatches(sentURL: String) throws {
        let recorded = try library(["https://x.example/d?lat=53.9&lon=27.5667", "https://x.example/d?lat=53.9&lon=27.5667&timezone=auto"])
        let error = try #require(caught { try recorded.match(try get(sentURL)) })
        #expect(error.code == .unavailable)
    }

    @Test("the method is part of the match")
    func method() throws {
        let recorded = try library(["https://x.example/d?a=1"])
        var request = try get("https://x.example/d?a=1")
        request.method = "POST"
        #expect(caught { try recorded.match(request) }?.code == .unavailable)
    }

    @Test("the host is ignored")
    func hostIgnored() throws {
        let recorded = try library(["https://api.openweathermap.org/data/2.5/weather?lat=1&lon=2"])
        let hit = try recorded.match(try get("http://127.0.0.1:8080/data/2.5/weather?lon=2&lat=1"))
        #expect(hit.url.host == "api.openweathermap.org")
    }

    @Test("the matching interaction is the one returned")
    func picksTheRightOne() throws {
        let text = cassette([
            interaction("https://x.example/d?city=a", response: #""body":"A""#),
            interaction("https://x.example/d?city=b", response: #""body":"B""#),
        ])
        let recorded = CassetteLibrary(interactions: try parse(text), origin: "o")
        #expect(try recorded.match(try get("https://x.example/d?city=b")).response.body == Array("B".utf8))
        #expect(try recorded.match(try get("https://x.example/d?city=a")).response.body == Array("A".utf8))
    }

    @Test("an unmatched request names its path and the nearest recording's differing parameter, without the key")
    func unmatchedMessage() throws {
        let recorded = try library([
            "https://api.openweathermap.org/data/2.5/weather?lat=53.9&lon=27.5667&units=metric",
            "https://api.openweathermap.org/data/2.5/weather?lat=10&lon=10&units=standard",
        ], file: "minsk.json")
        let request = try get("https://api.openweathermap.org/data/2.5/weather?lat=53.9&lon=27.5667&units=imperial&appid=\(Fixtures.sentinelKey)",
                              secrets: ["appid"])
        let error = try #require(caught { try recorded.match(request) })
        #expect(error.code == .unavailable)
        #expect(error.message.contains("/data/2.5/weather"))
        #expect(error.message.contains("minsk.json"))
        #expect(error.message.contains("differing in units"))
        #expect(!error.message.contains("lat, "))
        #expect(!error.message.contains(Fixtures.sentinelKey))
    }

    @Test("a missing directory is not configured")
    func missingDirectory() throws {
        let error = try #require(caught { try CassetteLibrary(directory: "/nonexistent/isobar/cassettes") })
        #expect(error.code == .notConfigured)
        #expect(error.message.contains("/nonexistent/isobar/cassettes"))
    }

    // Open-Meteo: per place, best match and the three models of one request; and Minsk's previous runs (learn --demo).
    @Test("the bundled directories hold every place", arguments: [("openweathermap", 14), ("open-meteo", 15)])
    func bundledDirectories(provider: String, count: Int) throws {
        let recorded = try CassetteLibrary(directory: Fixtures.cassetteDirectory(provider))
        #expect(recorded.interactions.count == count)
        #expect(recorded.interactions.allSatisfy { $0.recordedAt == Fixtures.recordedAt && $0.response.status == 200 })
        #expect(recorded.interactions.allSatisfy { $0.response.header("Content-Type") == "application/json; charset=utf-8" })
    }

    @Test("a directory read skips other files and names a broken cassette")
    func directoryWithBrokenFile() throws {
        let directory = FileManager.default.temporaryDirectory.path + "/isobar-provider-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let good = cassette([interaction("https://x.example/d?a=1")])
        #expect(FileManager.default.createFile(atPath: directory + "/a.json", contents: Data(good.utf8)))
        #expect(FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data("not a cassette".utf8)))
        #expect(try CassetteLibrary(directory: directory).interactions.count == 1)
        #expect(FileManager.default.createFile(atPath: directory + "/b.json", contents: Data(cassette([], version: "9").utf8)))
        let error = try #require(caught { try CassetteLibrary(directory: directory) })
        #expect(error.code == .badResponse(path: "$.version"))
        #expect(error.message.contains("b.json"))
    }
}

@Suite("Replay")
struct ReplayTests {
    @Test("the replay transport remembers the newest recording it served")
    func latestRecordedAt() async throws {
        let text = cassette([
            interaction("https://x.example/a", recordedAt: "2026-11-28T08:00:00Z"),
            interaction("https://x.example/b", recordedAt: "2026-11-28T10:00:00Z"),
        ])
        let transport = ReplayTransport(library: CassetteLibrary(interactions: try parse(text), origin: "o"))
        #expect(transport.latestRecordedAt == nil)
        _ = try await transport.send(try get("https://x.example/b"))
        _ = try await transport.send(try get("https://x.example/a"))
        #expect(transport.latestRecordedAt == Fixtures.recordedAt.addingTimeInterval(3600))
    }

    @Test("replaying a place that was never recorded fails, naming the path and the differing coordinates")
    func unrecordedPlace() async throws {
        let paris = Place(name: "Paris", coordinate: Coordinate(latitude: 48.8566, longitude: 2.3522)!)
        let provider = FixtureReplayProvider(base: OpenMeteoProvider(), library: try CassetteLibrary(directory: Fixtures.cassetteDirectory("open-meteo")))
        let error = try #require(await caughtAsync { try await provider.fetch(WeatherRequest(place: paris), transport: StubTransport(status: 500, body: "")) })
        #expect(error.code == .unavailable)
        #expect(error.message.contains("/v1/forecast"))
        #expect(error.message.contains("latitude, longitude"))
    }

    @Test("replaying with other units than recorded names units as the difference")
    func otherUnits() async throws {
        let fixture = try Fixtures.place("minsk")
        let adapter = OpenWeatherMapProvider(configuration: .init(apiKey: Fixtures.sentinelKey, requestUnits: .imperial))
        let provider = FixtureReplayProvider(base: adapter, library: try CassetteLibrary(directory: Fixtures.cassetteDirectory("openweathermap")))
        let error = try #require(await caughtAsync { try await provider.fetch(WeatherRequest(place: fixture.place), transport: StubTransport(status: 500, body: "")) })
        #expect(error.code == .unavailable)
        #expect(error.message.contains("/data/2.5/"))
        #expect(error.message.contains("minsk.json"))
        #expect(error.message.contains("differing in units"))
        #expect(!error.message.contains(Fixtures.sentinelKey))
    }
}
