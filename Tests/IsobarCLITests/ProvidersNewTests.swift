import Foundation
import IsobarCLI
import IsobarConsensus
import Testing

/// `isobar providers new`: skeletons that pass `providers check` on their fixture as written, and a third column in `compare`
/// after one command and one edit of the configuration, as the tutorial in docs/providers-reference.md says.
@Suite(.serialized) struct ProvidersNewTests {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"

    /// The configuration entry `providers new` prints.
    func entry(_ run: CLIRun) throws -> String {
        try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("  {\"id\": ") }).trimmingCharacters(in: .whitespaces)
    }

    @Test(arguments: ["python", "sh"])
    func aNewPluginPassesTheCheckAndBecomesAThirdColumn(_ language: String) async throws {
        let directory = temporaryDirectory("new-\(language)") + "/my-source"
        let made = await runCLI(["providers", "new", "my-source", "--lang", language, "--dir", directory])
        #expect(made.code == 0, "\(made.stderr)")
        #expect(FileManager.default.isExecutableFile(atPath: directory + "/isobar-provider-my-source"))
        #expect(FileManager.default.fileExists(atPath: directory + "/cassettes/minsk.json"))

        // A user's configuration with two sources, and the one edit: the printed entry added to its providers.
        let two = """
            {"id": "open-meteo", "type": "open-meteo", "replay": "\(dataDirectory)/cassettes/open-meteo"},
            {"id": "met-norway", "type": "met-norway", "replay": "\(dataDirectory)/cassettes/met-norway"}
            """
        let config = try temporaryConfiguration(#"{"providers": [\#(two), \#(try entry(made))]}"#)
        let check = await runCLI(["providers", "check", "my-source", "--config", config], environment: ["PATH": path])
        #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.hasSuffix("\nAll 37 rules checked pass.\n"))

        let compare = await runCLI(["compare", "Minsk", "--config", config], environment: ["PATH": path])
        #expect(compare.code == 0, "\(compare.stdout)\(compare.stderr)")
        let header = try #require(compare.stdout.split(separator: "\n").first { $0.hasPrefix("Now ") })
        #expect(header.split(separator: " ").map(String.init) == ["Now", "Open-Meteo", "MET", "Norway", "my-source", "Consensus", "Spread", "Confidence"])
    }

    @Test func existingFilesAreNeverOverwritten() async throws {
        let directory = temporaryDirectory("new-twice")
        let first = await runCLI(["providers", "new", "twice", "--lang", "sh", "--dir", directory])
        #expect(first.code == 0)
        let program = directory + "/isobar-provider-twice"
        try Data("# mine\n".utf8).write(to: URL(fileURLWithPath: program))
        let second = await runCLI(["providers", "new", "twice", "--lang", "python", "--dir", directory])
        #expect(second.code == ExitCode.usage.rawValue)
        #expect(second.stderr == "isobar: \(directory)/isobar-provider-twice already exists; nothing was written (choose another --dir or NAME)\n")
        #expect(try String(contentsOfFile: program, encoding: .utf8) == "# mine\n")
    }

    @Test(arguments: ["My-Source", "my_source", "-", "x-", "", "a/b", "näme", String(repeating: "a", count: 41)])
    func aBadNameIsAClearError(_ name: String) async {
        let directory = temporaryDirectory("new-bad")
        let run = await runCLI(["providers", "new", name, "--lang", "python", "--dir", directory])
        #expect(run.code == ExitCode.usage.rawValue)
        #expect(run.stderr == "isobar: provider name '\(name)' must be 1 to 40 lower-case letters, digits and hyphens (such as my-source)\n")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: directory))?.isEmpty == true)
    }

    @Test func aLanguageIsNeededAndKnown() async {
        let missing = await runCLI(["providers", "new", "x"])
        #expect(missing.code == ExitCode.usage.rawValue)
        #expect(missing.stderr == "isobar: 'providers new' needs --lang python, sh or swift\n")
        let unknown = await runCLI(["providers", "new", "x", "--lang", "ruby"])
        #expect(unknown.code == ExitCode.usage.rawValue)
        #expect(unknown.stderr.hasPrefix("isobar: invalid value 'ruby' for --lang: expected python, sh, swift"))
        let noName = await runCLI(["providers", "new", "--lang", "sh"])
        #expect(noName.code == ExitCode.usage.rawValue)
    }

    @Test func aSwiftSkeletonIsATargetWithAFactoryAFixtureAndTheLinesToAdd() async throws {
        let directory = temporaryDirectory("new-swift") + "/Providers/MySource"
        let run = await runCLI(["providers", "new", "my-source", "--lang", "swift", "--dir", directory])
        #expect(run.code == 0, "\(run.stderr)")
        let source = try String(contentsOfFile: directory + "/MySourceProvider.swift", encoding: .utf8)
        #expect(source.contains("public struct MySourceProvider: WeatherProvider {"))
        #expect(source.contains("public static let factory = ProviderFactory("))
        #expect(source.contains(#"type: "my-source""#))
        #expect(!source.contains("{{"))
        #expect(FileManager.default.fileExists(atPath: directory + "/cassettes/minsk.json"))
        #expect(run.stdout.contains(#"    ("MySource", uses: [], exclude: ["cassettes"]),"#))
        #expect(run.stdout.contains("MySourceProvider.factory,"))
        #expect(try entry(run) == #"{"id": "my-source", "type": "my-source", "replay": "\#(directory)/cassettes"}"#)

        // It type-checks against the IsobarCore this suite was built with (when the compiler and that module are at hand).
        let modules = packageRoot + "/.build/debug/Modules"
        guard FileManager.default.fileExists(atPath: modules + "/IsobarCore.swiftmodule"),
              let swiftc = path.split(separator: ":").map({ $0 + "/swiftc" }).first(where: FileManager.default.isExecutableFile) else { return }
        let typecheck = try await runExactly(swiftc, ["-typecheck", "-swift-version", "6", "-I", modules, "-I", packageRoot + "/Sources/CJansson",
                                                    directory + "/MySourceProvider.swift"], environment: ProcessInfo.processInfo.environment)
        #expect(typecheck.code == 0, "\(typecheck.stderr)")
    }
}
