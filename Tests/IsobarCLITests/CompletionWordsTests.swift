import Foundation
@testable import IsobarCLI
import Testing

/// Completion of what the user has: home, saved cities and recent places; the configured provider ids. Asked of the real
/// binary by each shell's script, as a shell asks while the user types.
@Suite(.tags(.realTime)) struct CompletionWordsTests {
    /// A fresh data folder shared by the commands of one test.
    let data = temporaryDirectory("completion-words")
    var environment: [String: String] { ["XDG_DATA_HOME": data] }

    /// The environment a shell runs in: the built binary first on PATH, the test's data folder, the bundled data.
    func shellEnvironment(_ binary: String) -> [String: String] {
        ["PATH": URL(fileURLWithPath: binary).deletingLastPathComponent().path + ":/usr/bin:/bin", "XDG_DATA_HOME": data,
         "ISOBAR_DATA_DIR": dataDirectory, "HOME": "/nonexistent-home", "XDG_CONFIG_HOME": "/nonexistent-config", "LANG": "C.UTF-8"]
    }

    func words(_ kind: String, _ extra: [String] = []) async -> [String] {
        let run = await runCLI(["completions", "bash", "--words", kind] + extra, environment: environment)
        #expect(run.code == 0 && run.stderr.isEmpty, "\(run.stderr)")
        return run.lines
    }

    /// Asks about places by name, by coordinates, with a typo and in other letter case; saves a city and a home.
    /// Offline with nothing cached, each command ends with 3, but its place resolved: it counts as asked about.
    /// The demo remembers nothing (it leaves the user's data alone).
    func useSomePlaces() async {
        #expect(await runCLI(["now", "Tokyo", "--demo"], environment: environment).code == 0)
        for place in ["new york", "10,10", "Lndon", "Paris, Texas", "São Paulo"] {
            #expect(await runCLI(["now", place, "--offline"], environment: environment).code == ExitCode.noneAnswered.rawValue)
        }
        #expect(await runCLI(["cities", "add", "Tokyo"], environment: environment).code == 0)
        #expect(await runCLI(["home", "set", "Moscow"], environment: environment).code == 0)
    }

    @Test func beforeAnyUseThePlacesAreTheFirstRunsCitiesAndNothingIsWritten() async {
        #expect(await words("places") == ["Minsk", "Moscow"])
        #expect(!FileManager.default.fileExists(atPath: data + "/isobar/places.sqlite"))
    }

    @Test func placesAreHomeCitiesThenRecentNamesEachOnce() async {
        await useSomePlaces()
        // Home, the cities in order, then places asked about by name, newest first: a typo as the place it found, a name in
        // other letter case as the place is named, a qualified name as typed; never coordinates; each once.
        #expect(await words("places") == ["Moscow", "Minsk", "Tokyo", "São Paulo", "Paris, Texas", "London", "New York"])
        let recent = try? String(contentsOfFile: data + "/isobar/recent-places", encoding: .utf8)
        #expect(recent?.contains("10,10") == false)
        // The demo's Tokyo was not remembered (Tokyo is offered as a saved city).
        #expect(recent?.contains("Tokyo") == false)
    }

    @Test func providersAreEveryIdOutputPrintsModelsIncluded() async throws {
        // The user's own configuration file, as the shell's `isobar` reads it.
        let configHome = temporaryDirectory("completion-config")
        try FileManager.default.createDirectory(atPath: configHome + "/isobar", withIntermediateDirectories: true)
        try """
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "models": ["ecmwf_ifs025", "gfs_seamless"]},
                       {"id": "owm", "type": "openweathermap", "enabled": false}]}
        """.write(toFile: configHome + "/isobar/config.json", atomically: true, encoding: .utf8)
        let run = await runCLI(["completions", "fish", "--words", "providers"], environment: ["XDG_CONFIG_HOME": configHome])
        #expect(run.lines == ["open-meteo", "open-meteo/ecmwf_ifs025", "open-meteo/gfs_seamless", "owm"], "\(run.stderr)")
        // A configuration that cannot be read offers nothing, and says nothing: a shell is waiting.
        try "{".write(toFile: configHome + "/isobar/config.json", atomically: true, encoding: .utf8)
        let broken = await runCLI(["completions", "bash", "--words", "providers"], environment: ["XDG_CONFIG_HOME": configHome])
        #expect(broken.code == 0 && broken.stdout.isEmpty && broken.stderr.isEmpty)
    }

    @Test func anUnknownKindIsAUsageError() async {
        let run = await runCLI(["completions", "bash", "--words", "planets"])
        #expect(run.code == ExitCode.usage.rawValue)
        #expect(run.stderr == "isobar: invalid value 'planets' for --words: expected places, providers; did you mean 'places'?\n")
    }

    @Test func bashOffersPlacesAndProvidersQuotedForTheShell() async throws {
        let binary = try #require(isobarExecutable())
        await useSomePlaces()
        let script = temporaryDirectory("completion-bash") + "/isobar.bash"
        try await runCLI(["completions", "bash"]).stdout.write(toFile: script, atomically: true, encoding: .utf8)
        func offers(_ words: [String]) async throws -> [String] {
            let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            let run = try await runExactly("/bin/bash", ["-c", "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _isobar; printf '%s\\n' \"${COMPREPLY[@]}\""],
                                           environment: shellEnvironment(binary))
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            return run.lines
        }
        #expect(try await offers(["isobar", "compare", "S"]) == ["São\\ Paulo"])
        #expect(try await offers(["isobar", "now", "Paris"]) == ["Paris,\\ Texas"])
        #expect(try await offers(["isobar", "cities", "remove", "New\\ Y"]) == ["New\\ York"])
        #expect(try await offers(["isobar", "T"]) == ["Tokyo"])
        #expect(try await offers(["isobar", "compare", "Minsk", "--providers", "open-meteo,m"]) == ["open-meteo,met-norway"])
        #expect(try await offers(["isobar", "providers", "check", "o"]) == ["openweathermap", "open-meteo"])
        // Commands are still offered first, and a command's options and actions are unchanged.
        #expect(try await offers(["isobar", "c"]) == ["compare", "cities", "cache", "config", "completions"])
        #expect(try await offers(["isobar", "cities", ""]) == ["list", "add", "remove", "rm", "move"])
    }

    @Test(.enabled(if: systemTool("zsh") != nil, "zsh is not installed: its completion functions are not run"))
    func zshFunctionsOfferPlacesAndProviders() async throws {
        let zsh = try #require(systemTool("zsh"))
        let binary = try #require(isobarExecutable())
        await useSomePlaces()
        let script = temporaryDirectory("completion-zsh") + "/_isobar"
        try await runCLI(["completions", "zsh"]).stdout.write(toFile: script, atomically: true, encoding: .utf8)
        // compadd and _values stand in for the completion system: they print what they are given.
        let stubs = "compdef() { :; }; source '\(script)'; compadd() { [[ $1 == -a ]] && print -l -- ${(P)2}; }; _values() { shift 3; print -l -- \"$@\"; }"
        let places = try await runExactly(zsh, ["-f", "-c", stubs + "; _isobar_words_places"], environment: shellEnvironment(binary))
        #expect(places.lines == ["Moscow", "Minsk", "Tokyo", "São Paulo", "Paris, Texas", "London", "New York"], "\(places.stderr)")
        let providers = try await runExactly(zsh, ["-f", "-c", stubs + "; _isobar_words_provider_list"], environment: shellEnvironment(binary))
        #expect(providers.lines == ["openweathermap", "open-meteo", "met-norway"], "\(providers.stderr)")
    }

    @Test(.enabled(if: systemTool("fish") != nil, "fish is not installed: the fish script is not run"))
    func fishOffersPlacesAndProviders() async throws {
        let fish = try #require(systemTool("fish"))
        let binary = try #require(isobarExecutable())
        await useSomePlaces()
        let script = temporaryDirectory("completion-fish") + "/isobar.fish"
        try await runCLI(["completions", "fish"]).stdout.write(toFile: script, atomically: true, encoding: .utf8)
        func offers(_ line: String) async throws -> [String] {
            var environment = shellEnvironment(binary)
            environment["HOME"] = temporaryDirectory("fish-home")
            let run = try await runExactly(fish, ["--no-config", "-c", "source '\(script)'; complete -C '\(line)'"], environment: environment)
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            return run.lines.map { String($0.prefix { $0 != "\t" }) }
        }
        #expect(try await offers("isobar compare S") == ["São Paulo"])
        #expect(try await offers("isobar cities remove N") == ["New York"])
        #expect(try await offers("isobar compare Minsk --providers open-meteo,m") == ["open-meteo,met-norway"])
        #expect(try await offers("isobar providers reset m") == ["met-norway"])
    }
}

/// The file of recent places: bounded, newest first, each once, never a line that is not a name.
@Suite struct RecentPlacesTests {
    @Test func keepsTheNewestNamesEachOnceWithinItsBounds() throws {
        let places = RecentPlaces(directory: temporaryDirectory("recent") + "/isobar")
        #expect(places.names() == [])
        for index in 0..<300 { places.remember("Place \(index % 40)") }
        places.remember("place 5")
        let names = places.names()
        #expect(names.count == RecentPlaces.kept)
        #expect(names.first == "place 5")
        // The loop ended with Place 19 (299 % 40), then its names before it, newest first.
        #expect(Array(names.dropFirst().prefix(3)) == ["Place 19", "Place 18", "Place 17"])
        #expect(!names.dropFirst().contains { $0.lowercased() == "place 5" })
        // The file is compacted as it grows: never much past its limit.
        let size = try FileManager.default.attributesOfItem(atPath: places.path)[.size] as? Int ?? .max
        #expect(size <= RecentPlaces.compactAboveBytes + 200)
    }

    @Test func namesAreOneCleanLine() {
        #expect(RecentPlaces.cleaned("  Minsk \n") == "Minsk")
        #expect(RecentPlaces.cleaned("Min\u{7}sk") == "Minsk")
        #expect(RecentPlaces.cleaned("   ") == nil)
        #expect(RecentPlaces.cleaned(String(repeating: "a", count: RecentPlaces.longestName + 1)) == nil)
        let places = RecentPlaces(directory: temporaryDirectory("recent-clean") + "/isobar")
        places.remember("Oslo\nrm -rf /")
        #expect(places.names() == ["Oslorm -rf /"])
    }
}
