import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

/// Place names of a search's JSON lines, in rank order.
func searchNames(_ run: CLIRun) throws -> [String] {
    try parseLines(run).map { line in
        let place = try line.member("place")
        return [try place.string("name"), try place.optionalString("country_code")].compactMap { $0 }.joined(separator: ", ")
    }
}

@Suite struct SearchCommandTests {
    @Test(arguments: [
        ("Минск", "Minsk, BY"), ("東京", "Tokyo, JP"), ("Москва", "Moscow, RU"), ("sao paulo", "São Paulo, BR"),
        ("zurich", "Zürich, CH"), ("MINSK", "Minsk, BY"), ("Mosow", "Moscow, RU"), ("Paris", "Paris, FR"),
        ("Paris, US", "Paris, US"), ("London", "London, GB"), ("Springfield", "Springfield, US"),
    ])
    func searchFindsTheRightPlaceFirst(query: String, expected: String) async throws {
        let run = await runCLI(["search", query, "--format", "jsonl", "--limit", "5"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(try searchNames(run).first == expected)
    }

    @Test func qualifiersNarrowAndRankingFollowsPopulation() async throws {
        let texas = try parseLines(await runCLI(["search", "Paris, TX", "--format", "jsonl"]))
        #expect(try texas.first?.member("place").optionalString("admin_area") == "Texas")
        let springfields = try parseLines(await runCLI(["search", "Springfield", "--format", "jsonl", "--limit", "4"]))
        #expect(springfields.count == 4)
        let paris = try searchNames(await runCLI(["search", "Paris", "--format", "jsonl", "--limit", "3"]))
        #expect(paris.first == "Paris, FR")
        #expect(paris.contains("Paris, US"))
    }

    @Test func coordinatesAreTakenAsCoordinates() async throws {
        let run = await runCLI(["search", "53.9,27.57", "--format", "jsonl"])
        let line = try #require(try parseLines(run).first)
        let place = try line.member("place")
        #expect(try place.double("latitude") == 53.9)
        #expect(try place.double("longitude") == 27.57)
        #expect(try place.string("name") == "near Minsk")
        #expect(try place.optionalString("timezone") == "Europe/Minsk")
        #expect(try line.string("match") == "coordinates")
        #expect(try line.member("nearest").string("name") == "Minsk")
        #expect(try line.member("nearest").double("distance_km") < 1)
    }

    @Test func newYorkIsNotFollowedByJakarta() async throws {
        let names = try searchNames(await runCLI(["search", "New York", "--format", "jsonl"]))
        #expect(names.first == "New York, US")
        #expect(!names.contains("Jakarta, ID"))
    }

    @Test func searchSaysWhichNameMatched() async throws {
        let lines = try parseLines(await runCLI(["search", "Москва", "--format", "jsonl", "--limit", "3"]))
        let first = try #require(lines.first)
        #expect(try first.string("matched") == "Москва")
        #expect(try first.member("matched_alternate").bool())
        #expect(try first.string("match") == "exact_alternate")
        // A bundled place says which of its names matched too.
        let minsk = try #require(try parseLines(await runCLI(["search", "минск", "--format", "jsonl"])).first)
        #expect(try minsk.member("place").optionalString("admin_area") == "Minsk City")
        #expect(try minsk.string("matched") == "Минск")
        #expect(try minsk.member("matched_alternate").bool())
        #expect(try minsk.int("population") > 1_000_000)
        let typo = try #require(try parseLines(await runCLI(["search", "Mosow", "--format", "jsonl"])).first)
        #expect(try typo.string("matched") == "Moscow")
        #expect(try typo.string("match") == "typo")
        #expect(try typo.int("population") > 10_000_000)

        let table = await runCLI(["search", "Sao Paulo"])
        #expect(table.code == 0, "\(table.stderr)")
        #expect(table.stdout.contains("Matched"))
        #expect(table.stdout.contains(#""Sao Paulo" ← name "São Paulo""#))
        let alternate = await runCLI(["search", "Moskva"])
        #expect(alternate.stdout.contains(#""Moskva" ← alternate name "Moskva""#))
        let prefix = await runCLI(["search", "Reykjav"])
        #expect(prefix.stdout.contains(#""Reykjav" ← name "Reykjavík" (prefix)"#), "\(prefix.stdout)")
    }

    @Test(arguments: [
        ("x", "at least 2 characters"), ("", "a place is needed"), ("Minsk\u{1}", "control characters"),
        (String(repeating: "a", count: 10_000), "too long"), ("91,0", "latitude 91 is out of range"),
    ])
    func badSearchesAreOneLineErrors(text: String, message: String) async {
        expectOneLineError(await runCLI(["search", text]), code: .badPlace, containing: message)
    }

    @Test func invalidUTF8IsAnUnknownPlaceNotACrash() async throws {
        let binary = try #require(isobarExecutable())
        let run = try await runProcess("/bin/sh", ["-c", "'\(binary)' compare \"$(printf 'Min\\377sk')\" --demo"])
        // The invalid byte arrives as U+FFFD: the name is then either corrected, with a note, or unknown.
        #expect(run.code == 0 || run.code == ExitCode.badPlace.rawValue, "\(run.stderr)")
        #expect(run.stderr.contains("no place is called") || run.stderr.contains("unknown place"))
        #expect(!run.stderr.contains("Fatal"))
    }

    @Test func searchLimitIsChecked() async {
        expectOneLineError(await runCLI(["search", "Paris", "--limit", "0"]), code: .usage, containing: "--limit takes a whole number from 1 to 50")
    }

    @Test func ambiguousNamesSayWhichPlaceWasChosen() async throws {
        let server = try providerServer()
        let run = await runCLI(["compare", "Paris", "--config", try liveConfiguration(server), "--format", "jsonl"],
                               environment: ["TEST_OWM_KEY": sentinelKey], transport: { CurlTransport(userAgent: "isobar/test") })
        #expect(run.stderr.contains("note: 'Paris' is Paris, FR; also: Paris, Texas, US"))
        let place = try #require(try parseLines(run).last).member("place")
        #expect(try place.member("runners_up").elements().first?.optionalString("admin_area") == "Texas")
        #expect(try place.string("query") == "Paris")
    }
}

@Suite struct GeocodingFallbackTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    func configuration(_ geocoder: LoopbackServer, _ weather: LoopbackServer) throws -> String {
        try temporaryConfiguration("""
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\(weather.baseURL)", "geocoding_url": "\(geocoder.baseURL)"}]}
        """)
    }

    @Test func unknownNamesAreGeocodedAndCached() async throws {
        let geocoder = try LoopbackServer { request in
            request.parameter("name") == "Xyzzyville"
                ? .init(#"{"results":[{"id":1,"name":"Xyzzyville","latitude":12.5,"longitude":-3.25,"country_code":"ML","timezone":"Africa/Bamako","admin1":"Kayes"}],"generationtime_ms":0.5}"#)
                : .init(#"{"generationtime_ms":0.2}"#)
        }
        let weather = try providerServer()
        let config = try configuration(geocoder, weather)
        let environment = ["XDG_CACHE_HOME": temporaryDirectory("geo-cache")]
        let run = await runCLI(["compare", "Xyzzyville", "--config", config, "--format", "jsonl"], environment: environment, transport: curl)
        #expect(run.code == 0, "\(run.stderr)")
        let place = try #require(try parseLines(run).last).member("place")
        #expect(try place.string("name") == "Xyzzyville")
        #expect(try place.double("latitude") == 12.5)
        #expect(geocoder.requests.count == 1)
        _ = await runCLI(["compare", "Xyzzyville", "--config", config], environment: environment, transport: curl)
        #expect(geocoder.requests.count == 1)
        // No `results` key means no match: a clear unknown-place error.
        expectOneLineError(await runCLI(["compare", "Qwxzzt", "--config", config], environment: environment, transport: curl),
                           code: .badPlace, containing: "unknown place 'Qwxzzt'")
    }

    @Test func aGeocodingErrorIsAWarningThenAnUnknownPlace() async throws {
        let geocoder = try LoopbackServer { _ in .init(status: 400, #"{"error":true,"reason":"Parameter count must be between 1 and 100."}"#) }
        let weather = try providerServer()
        let run = await runCLI(["compare", "Qwxzzt", "--config", try configuration(geocoder, weather)], transport: curl)
        #expect(run.code == ExitCode.badPlace.rawValue)
        #expect(run.stderr.contains("warning: geocoding 'Qwxzzt' with open-meteo failed"))
        #expect(run.stderr.contains("Parameter count must be between 1 and 100."))
    }

    @Test func openWeatherMapGeocodingIsAskedWhenOpenMeteoFindsNothing() async throws {
        let geocoder = try LoopbackServer { request in
            switch request.path {
            case "/v1/search": .init(#"{"generationtime_ms":0.2}"#)
            case "/geo/1.0/direct": .init(#"[{"name":"Qwxzzt","local_names":{"en":"Qwxzzt"},"lat":-10.25,"lon":20.5,"country":"AO","state":"Moxico"}]"#)
            default: .init(status: 404, "{}")
            }
        }
        let weather = try providerServer()
        let config = try temporaryConfiguration("""
        {"providers": [
          {"id": "open-meteo", "type": "open-meteo", "base_url": "\(weather.baseURL)", "geocoding_url": "\(geocoder.baseURL)"},
          {"id": "openweathermap", "type": "openweathermap", "api_key_env": "TEST_OWM_KEY", "base_url": "\(weather.baseURL)", "geocoding_url": "\(geocoder.baseURL)"}
        ]}
        """)
        let cache = temporaryDirectory("geo-cache")
        let run = await runCLI(["compare", "Qwxzzt", "--config", config, "--format", "jsonl"],
                               environment: ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": cache], transport: curl)
        #expect(run.code == 0, "\(run.stderr)")
        let place = try #require(try parseLines(run).last).member("place")
        #expect(try place.string("admin_area") == "Moxico")
        #expect(try place.double("latitude") == -10.25)
        let owmRequest = try #require(geocoder.requests.first { $0.path == "/geo/1.0/direct" })
        #expect(owmRequest.parameter("q") == "Qwxzzt")
        #expect(owmRequest.parameter("appid") == sentinelKey)
        #expect(!run.stdout.contains(sentinelKey) && !run.stderr.contains(sentinelKey))
        #expect(try !filesContain(cache, sentinelKey))
    }

    @Test func aGeocodingRequestCountsInItsProvidersRateLimit() async throws {
        let geocoder = try LoopbackServer { _ in .init(#"[{"name":"Qwxzzt","lat":-10.25,"lon":20.5,"country":"AO","state":"Moxico"}]"#) }
        let weather = try providerServer()
        let config = try temporaryConfiguration("""
        {"providers": [
          {"id": "openweathermap", "type": "openweathermap", "api_key_env": "TEST_OWM_KEY", "base_url": "\(weather.baseURL)",
           "geocoding_url": "\(geocoder.baseURL)", "rate_limits": [{"limit": 60, "per_s": 3600}]}
        ]}
        """)
        let environment = ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": temporaryDirectory("geo-limit")]
        let run = await runCLI(["compare", "Qwxzzt", "--config", config, "--format", "jsonl"], environment: environment, transport: curl)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(geocoder.requests.count == 1 && weather.requests.count == 1)
        // The ledger counts both requests the provider saw: the name looked up, then the weather asked.
        let providers = await runCLI(["providers", "--config", config, "--format", "jsonl"], environment: environment)
        let info = try #require(try parseLines(providers).first { try $0.string("type") == "provider_info" })
        #expect(try info.member("rate_limits").elements().first?.double("used") == 2, "\(providers.stdout)")
    }

    @Test func offlineAndDemoRunsNeverGeocode() async throws {
        let geocoder = try LoopbackServer { _ in .init(#"{"generationtime_ms":0.2}"#) }
        let weather = try providerServer()
        _ = await runCLI(["compare", "Qwxzzt", "--config", try configuration(geocoder, weather), "--offline"], transport: curl)
        _ = await runCLI(["compare", "Qwxzzt", "--demo"], transport: curl)
        #expect(geocoder.requests.isEmpty)
    }
}

@Suite struct CitiesCommandTests {
    @Test func firstRunSeedsMinskAndMoscowAndChangesPersist() async throws {
        let environment = ["XDG_DATA_HOME": temporaryDirectory("cities")]
        let first = try parseLines(await runCLI(["cities", "--demo", "--format", "jsonl"], environment: environment))
        #expect(try first.map { try $0.member("place").string("name") } == ["Minsk", "Moscow"])
        #expect(try first.first?.double("temperature") == -0.1)
        #expect(try first.first?.string("condition") == "snow")
        let added = await runCLI(["cities", "add", "Tokyo", "--demo"], environment: environment)
        #expect(added.stdout == "Added Tokyo, Tokyo, JP as city number 3.\n")
        let again = await runCLI(["cities", "add", "東京", "--demo"], environment: environment)
        #expect(again.stdout == "Tokyo, Tokyo, JP is already city number 3.\n")
        let removed = await runCLI(["cities", "remove", "moscow", "--demo"], environment: environment)
        #expect(removed.stdout == "Removed Moscow, Moscow, RU.\n")
        let table = await runCLI(["cities", "--demo"], environment: environment)
        #expect(table.stdout.contains("1  Minsk, Minsk City, BY"))
        #expect(table.stdout.contains("2  Tokyo, Tokyo, JP"))
        #expect(!table.stdout.contains("Moscow"))
        // Removing everything does not bring the first-run cities back.
        _ = await runCLI(["cities", "remove", "1", "--demo"], environment: environment)
        _ = await runCLI(["cities", "remove", "1", "--demo"], environment: environment)
        #expect(await runCLI(["cities", "--demo"], environment: environment).stdout.contains("You have no cities"))
    }

    @Test func badCityCommandsAreClearErrors() async throws {
        let environment = ["XDG_DATA_HOME": temporaryDirectory("cities")]
        expectOneLineError(await runCLI(["cities", "remove", "Atlantis", "--demo"], environment: environment), code: .badPlace,
                           containing: "'Atlantis' is not one of your cities (Minsk, Moscow)")
        expectOneLineError(await runCLI(["cities", "remove", "7", "--demo"], environment: environment), code: .badPlace,
                           containing: "there is no city number 7; you have 2")
        expectOneLineError(await runCLI(["cities", "ad", "Tokyo"], environment: environment), code: .usage, containing: "did you mean 'add'?")
        expectOneLineError(await runCLI(["cities", "add", "x'); DROP TABLE favourites; --", "--demo"], environment: environment),
                           code: .badPlace, containing: "unknown place")
        expectOneLineError(await runCLI(["cities", "add", String(repeating: "z", count: 10_000), "--demo"], environment: environment),
                           code: .badPlace, containing: "too long")
        // The store is intact after all that.
        let list = try parseLines(await runCLI(["cities", "--demo", "--format", "jsonl"], environment: environment))
        #expect(list.count == 2)
    }

    @Test func rmIsRemoveAndMoveReordersByNumberNameOrCoordinates() async throws {
        let environment = ["XDG_DATA_HOME": temporaryDirectory("cities")]
        _ = await runCLI(["cities", "add", "Tokyo", "--demo"], environment: environment)
        _ = await runCLI(["cities", "add", "-15.2,30.25", "--demo"], environment: environment)
        let moved = await runCLI(["cities", "move", "3", "1", "--demo"], environment: environment)
        #expect(moved.code == 0, "\(moved.stderr)")
        #expect(moved.stdout == "Moved Tokyo, Tokyo, JP to number 1.\n")
        #expect(try await cityNames(environment) == ["Tokyo", "Minsk", "Moscow", "-15.2,30.25"])
        #expect(await runCLI(["cities", "move", "minsk", "moscow", "--demo"], environment: environment).code == 0)
        #expect(try await cityNames(environment) == ["Tokyo", "Moscow", "Minsk", "-15.2,30.25"])
        let json = try #require(try parseLines(await runCLI(["cities", "move", "-15.20,30.250", "1", "--demo", "--format", "jsonl"],
                                                            environment: environment)).first)
        #expect(try json.string("type") == "city_moved")
        #expect(try json.int("from") == 4)
        #expect(try json.int("index") == 1)
        #expect(try await cityNames(environment) == ["-15.2,30.25", "Tokyo", "Moscow", "Minsk"])
        // Coordinates compare by value, as typed in any form.
        let removed = await runCLI(["cities", "rm", "-15.20,30.25", "--demo"], environment: environment)
        #expect(removed.stdout == "Removed -15.2,30.25.\n")
        #expect(await runCLI(["cities", "rm", "tokyo", "--demo"], environment: environment).stdout == "Removed Tokyo, Tokyo, JP.\n")
        #expect(try await cityNames(environment) == ["Moscow", "Minsk"])
    }

    @Test func badMovesAreClearErrors() async throws {
        let environment = ["XDG_DATA_HOME": temporaryDirectory("cities")]
        expectOneLineError(await runCLI(["cities", "move", "3", "1", "--demo"], environment: environment), code: .badPlace,
                           containing: "there is no city number 3; you have 2 (1 to 2)")
        expectOneLineError(await runCLI(["cities", "move", "1", "0", "--demo"], environment: environment), code: .badPlace,
                           containing: "there is no city number 0; you have 2 (1 to 2)")
        expectOneLineError(await runCLI(["cities", "move", "Paris", "1", "--demo"], environment: environment), code: .badPlace,
                           containing: "'Paris' is not one of your cities (Minsk, Moscow)")
        expectOneLineError(await runCLI(["cities", "move", "1", "--demo"], environment: environment), code: .usage,
                           containing: "'cities move' needs FROM and TO")
        expectOneLineError(await runCLI(["cities", "rm", "Tokyo", "Paris", "--demo"], environment: environment), code: .usage,
                           containing: "unexpected argument 'Paris' for 'cities rm'")
        expectOneLineError(await runCLI(["cities", "mvoe", "1", "2"], environment: environment), code: .usage, containing: "did you mean 'move'?")
        #expect(try await cityNames(environment) == ["Minsk", "Moscow"])
    }

    @Test func anAmbiguousNameMeansItsBestMatchEverywhereAndSaysSo() async throws {
        let environment = ["XDG_DATA_HOME": temporaryDirectory("cities")]
        let now = await runCLI(["now", "Springfield", "--demo", "--format", "jsonl"], environment: environment)
        let note = try #require(now.stderr.split(separator: "\n").first { $0.contains("note: 'Springfield' is ") })
        let best = try #require(try parseLines(now).last).member("place")
        let added = await runCLI(["cities", "add", "Springfield", "--demo", "--format", "jsonl"], environment: environment)
        #expect(added.code == 0, "\(added.stderr)")
        #expect(added.stderr == note + "\n")
        let line = try #require(try parseLines(added).first)
        #expect(try line.member("place").double("latitude") == best.double("latitude"))
        #expect(try line.member("runners_up").count() == best.member("runners_up").count())
        let home = await runCLI(["home", "set", "Springfield", "--demo"], environment: environment)
        #expect(home.stderr == note + "\n")
        #expect(try await homeName(environment) == "Springfield")
    }

    @Test func twoProcessesAddingAtOnceLoseNothing() async throws {
        let environment = ["XDG_DATA_HOME": temporaryDirectory("cities")]
        _ = try await runProcess(try #require(isobarExecutable()), ["cities", "--demo"], environment: environment)
        let places = ["Tokyo", "London", "New York", "São Paulo", "Paris, FR", "Berlin"]
        let runs = try await runConcurrently(places.map { ["cities", "add", $0, "--demo"] }, environment: environment)
        for run in runs { #expect(run.code == 0, "\(run.stderr)") }
        let list = try await runProcess(try #require(isobarExecutable()), ["cities", "--demo", "--format", "jsonl"], environment: environment)
        let names = try parseLines(list).map { try $0.member("place").string("name") }
        #expect(names.count == 8)
        #expect(Set(names) == Set(["Minsk", "Moscow", "Tokyo", "London", "New York", "São Paulo", "Paris", "Berlin"]))
    }

    @Test func searchAddAddsTheTopResultAndShowsIt() async throws {
        let environment = ["XDG_DATA_HOME": temporaryDirectory("cities")]
        let run = await runCLI(["search", "tokio", "--add", "--demo"], environment: environment)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stderr.contains("added Tokyo, JP to your cities as number 3"))
        #expect(run.stdout.contains("Now (18:00)"))
        #expect(run.stdout.contains("Hourly consensus"))
    }
}

@Suite struct HomeCommandTests {
    @Test func homeIsShownWithNoArgumentsAndFallsBackToTheFirstCity() async throws {
        let environment = ["XDG_DATA_HOME": temporaryDirectory("home")]
        let fallback = await runCLI(["--demo"], environment: environment)
        #expect(fallback.code == 0, "\(fallback.stderr)")
        #expect(fallback.stderr.contains("no home set"))
        #expect(fallback.stdout.hasPrefix("Minsk, Minsk City, BY"))
        #expect(fallback.stdout.contains("Daily consensus"))
        let set = await runCLI(["home", "set", "São Paulo", "--demo"], environment: environment)
        #expect(set.stdout == "Home is now São Paulo, São Paulo, BR.\n")
        let home = await runCLI(["--demo", "--format", "jsonl"], environment: environment)
        let consensus = try #require(try parseLines(home).last)
        #expect(try consensus.member("place").string("name") == "São Paulo")
        #expect(try consensus.member("hourly").count() == 12)
        #expect(try consensus.member("daily").count() == 5)
        #expect(try consensus.member("current").double("temperature") == 20.2)
        expectOneLineError(await runCLI(["home", "move", "--demo"], environment: environment), code: .usage, containing: "unknown home action")
    }

    @Test func homeUnsetFallsBackToTheFirstCity() async throws {
        let environment = ["XDG_DATA_HOME": temporaryDirectory("home")]
        #expect(await runCLI(["home", "unset", "--demo"], environment: environment).stdout == "No home was set.\n")
        _ = await runCLI(["home", "set", "Tokyo", "--demo"], environment: environment)
        let unset = await runCLI(["home", "unset", "--demo"], environment: environment)
        #expect(unset.code == 0)
        #expect(unset.stdout == "Home unset (it was Tokyo, Tokyo, JP); isobar now shows your first city.\n")
        let shown = await runCLI(["--demo"], environment: environment)
        #expect(shown.stderr.contains("no home set"))
        #expect(shown.stdout.hasPrefix("Minsk, Minsk City, BY"))
        let json = try #require(try parseLines(await runCLI(["home", "unset", "--demo", "--format", "jsonl"], environment: environment)).first)
        #expect(try json.string("type") == "home_unset")
        #expect(try json.member("place").isNull)
        expectOneLineError(await runCLI(["home", "unset", "Tokyo", "--demo"], environment: environment), code: .usage, containing: "takes no PLACE")
    }
}

@Suite struct PlacesJSONLinesTests {
    @Test func cityAndHomeChangesSpeakJSONLines() async throws {
        let environment = ["XDG_DATA_HOME": temporaryDirectory("json-cities")]
        let added = try #require(try parseLines(await runCLI(["cities", "add", "Tokyo", "--demo", "--format", "jsonl"], environment: environment)).first)
        #expect(try added.string("type") == "city_added")
        #expect(try added.int("index") == 3)
        #expect(try !added.member("already_there").bool())
        let removed = try #require(try parseLines(await runCLI(["cities", "remove", "1", "--demo", "--format", "jsonl"], environment: environment)).first)
        #expect(try removed.string("type") == "city_removed")
        #expect(try removed.member("place").string("name") == "Minsk")
        let home = try #require(try parseLines(await runCLI(["home", "set", "London", "--demo", "--format", "jsonl"], environment: environment)).first)
        #expect(try home.string("type") == "home_set")
        #expect(try home.member("place").string("country_code") == "GB")
    }
}

@Suite struct CoordinateNamingTests {
    /// The offset `zone` has now, as the heading shows it.
    func offsetNow(_ zone: String) throws -> Int { try ZoneInfo.load(identifier: zone).offset(at: Date()) }

    @Test func coordinatesAreNamedAfterTheNearestCityInItsZone() async throws {
        // Offline with an empty cache: no provider answers, and the place still has its name, zone and offset.
        let run = await runCLI(["now", "53.9,27.5667", "--offline", "--format", "jsonl"])
        #expect(run.code == ExitCode.noneAnswered.rawValue, "\(run.stderr)")
        let lines = try parseLines(run)
        #expect(!lines.isEmpty)
        for line in lines {
            let place = try line.member("place")
            #expect(try place.string("name") == "near Minsk")
            #expect(try place.optionalString("country_code") == "BY")
            #expect(try place.optionalString("timezone") == "Europe/Minsk")
            #expect(try place.optionalInt("utc_offset_seconds") == (try offsetNow("Europe/Minsk")))
        }
        let table = await runCLI(["now", "53.9,27.5667", "--offline"])
        #expect(table.stdout.hasPrefix("near Minsk, BY  53.9, 27.5667  Europe/Minsk UTC+03:00"), "\(table.stdout)")
    }

    @Test func nowParisOfflineShowsTheOffsetOfItsZone() async throws {
        let offset = try offsetNow("Europe/Paris")
        let table = await runCLI(["now", "Paris", "--offline"])
        #expect(table.code == ExitCode.noneAnswered.rawValue, "\(table.stderr)")
        #expect(table.stdout.contains("Europe/Paris UTC\(CivilTime.offsetText(offset))"), "\(table.stdout)")
        #expect(!table.stdout.contains("UTC+00:00"))
        let lines = try parseLines(await runCLI(["now", "Paris", "--offline", "--format", "jsonl"]))
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(try line.member("place").optionalInt("utc_offset_seconds") == offset)
        }
    }

    @Test func coordinatesFarFromAnyCityKeepTheirPlainName() async throws {
        let run = await runCLI(["now", "-40,-120", "--offline", "--format", "jsonl"])
        let place = try #require(try parseLines(run).first).member("place")
        #expect(try place.string("name") == "-40,-120")
        #expect(try place.optionalString("timezone") == nil)
        #expect(!run.stderr.contains("warning"))
    }

    @Test func aDamagedIndexLeavesCoordinatesPlainWithAWarning() async throws {
        // A data directory like the bundled one whose spatial index is cut short.
        let directory = temporaryDirectory("data")
        let manager = FileManager.default
        for entry in try manager.contentsOfDirectory(atPath: dataDirectory) where entry != "gazetteer" {
            try manager.createSymbolicLink(atPath: directory + "/" + entry, withDestinationPath: dataDirectory + "/" + entry)
        }
        try manager.createDirectory(atPath: directory + "/gazetteer", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: directory + "/gazetteer/cities15000.tsv", withDestinationPath: dataDirectory + "/gazetteer/cities15000.tsv")
        let index = try Data(contentsOf: URL(fileURLWithPath: dataDirectory + "/gazetteer/cities15000.grid"))
        try index.prefix(1000).write(to: URL(fileURLWithPath: directory + "/gazetteer/cities15000.grid"))
        let run = await runCLI(["compare", "53.9,27.5667", "--demo", "--format", "jsonl"], environment: ["ISOBAR_DATA_DIR": directory])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: coordinates are not named: the place index"))
        #expect(run.stderr.contains("is damaged"))
        #expect(try parseLines(run).last?.member("place").string("name") == "53.9,27.5667")
    }
}
