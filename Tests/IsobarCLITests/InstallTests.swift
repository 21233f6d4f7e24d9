import Foundation
@testable import IsobarCLI
@testable import IsobarConsensus
import IsobarTestKit
import Testing

/// The first executable called `name` in the usual system folders.
func systemTool(_ name: String) -> String? {
    ["/usr/local/bin", "/usr/bin", "/bin"].map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Runs a program in `directory` with exactly `environment` (no ISOBAR_DATA_DIR unless given) and no standard input,
/// waiting on a thread of its own so that no other test's tasks wait behind it.
func runExactly(_ executable: String, _ arguments: [String], in directory: String = "/",
                environment: [String: String] = ["PATH": "/usr/bin:/bin"]) async throws -> CLIRun {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try runBlocking(executable, arguments, in: directory, environment: environment) }) }.start()
    }
}

/// Runs the program, trying again while it is "text file busy": a child another test is spawning at that moment holds,
/// until its own exec, a copy of the descriptor that wrote a freshly copied executable.
private func runBlocking(_ executable: String, _ arguments: [String], in directory: String, environment: [String: String]) throws -> CLIRun {
    var attempts = 1
    while true {
        do {
            return try runOnce(executable, arguments, in: directory, environment: environment)
        } catch let error as NSError where attempts < 50 && isTextFileBusy(error) {
            attempts += 1
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}

/// Whether starting a program failed with ETXTBSY, as Foundation reports it.
private func isTextFileBusy(_ error: NSError) -> Bool {
    let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
    return [error, underlying].contains { $0?.domain == NSPOSIXErrorDomain && $0?.code == Int(ETXTBSY) }
}

private func runOnce(_ executable: String, _ arguments: [String], in directory: String, environment: [String: String]) throws -> CLIRun {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return finishBlocking((process, out, err))
}

/// Every file and folder under `root`, relative to it, sorted.
func contents(of root: String) -> [String] {
    ((try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? []).sorted()
}

/// `scripts/install.sh` into a temporary prefix, the installed binary run from `/`, and `--uninstall`.
@Suite(.serialized) struct InstallTests {
    let script = packageRoot + "/scripts/install.sh"

    func binary() throws -> String {
        try #require(isobarExecutable(), "build the isobar executable first (swift build)")
    }

    /// A clean environment with its own home and cache, and no ISOBAR_DATA_DIR.
    func environment() -> [String: String] {
        let home = temporaryDirectory("home")
        return ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "XDG_CACHE_HOME": home + "/cache", "XDG_CONFIG_HOME": home + "/config"]
    }

    func install(_ prefix: String, _ extra: [String] = []) async throws -> CLIRun {
        try await runExactly("/bin/bash", [script, "--prefix", prefix, "--binary", try binary()] + extra, environment: environment())
    }

    func uninstall(_ prefix: String) async throws -> CLIRun {
        try await runExactly("/bin/bash", [script, "--uninstall", "--prefix", prefix], environment: environment())
    }

    @Test func installedBinaryAnswersFromAnyDirectoryAndUninstallLeavesNothing() async throws {
        let prefix = temporaryDirectory("prefix")
        let installed = try await install(prefix)
        #expect(installed.code == 0, "\(installed.stderr)")
        let files = ["bin/isobar", "share/isobar/demo.json", "share/isobar/places.json", "share/isobar/isobar.json",
                     "share/isobar/gazetteer/cities15000.tsv", "share/isobar/cassettes/open-meteo/minsk.json",
                     "share/isobar/cassettes/openweathermap/minsk.json", "share/isobar/install-manifest.txt",
                     "share/isobar/schemas/isobar-lines-v1.schema.json",
                     "share/man/man1/isobar.1", "share/bash-completion/completions/isobar", "share/zsh/site-functions/_isobar",
                     "share/fish/vendor_completions.d/isobar.fish"]
        for file in files { #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) is missing") }
        #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/isobar"))

        let run = try await runExactly(prefix + "/bin/isobar", ["compare", "Minsk", "--demo"], in: "/", environment: environment())
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Minsk, Minsk City, BY"))
        #expect(run.stdout.contains("OpenWeatherMap  Open-Meteo ECMWF IFS  Open-Meteo GFS  Open-Meteo ICON  MET Norway  Consensus"))
        #expect(run.stdout.contains("Replayed data, not live"))
        let help = try await runExactly(prefix + "/bin/isobar", ["--help"], in: "/", environment: environment())
        #expect(help.stdout.contains("Try: isobar compare Minsk --demo"))
        // A symbolic link elsewhere (~/bin/isobar) still finds the data beside the real file.
        let links = temporaryDirectory("links")
        try FileManager.default.createSymbolicLink(atPath: links + "/isobar", withDestinationPath: prefix + "/bin/isobar")
        let linked = try await runExactly(links + "/isobar", ["now", "Tokyo", "--demo"], in: "/", environment: environment())
        #expect(linked.code == 0, "\(linked.stderr)")

        let bash = try await runExactly("/bin/bash", ["-n", prefix + "/share/bash-completion/completions/isobar"])
        #expect(bash.code == 0, "\(bash.stderr)")
        if let zsh = systemTool("zsh") {
            let check = try await runExactly(zsh, ["-n", prefix + "/share/zsh/site-functions/_isobar"])
            #expect(check.code == 0, "\(check.stderr)")
        }
        if let fish = systemTool("fish") {
            let check = try await runExactly(fish, ["-n", prefix + "/share/fish/vendor_completions.d/isobar.fish"])
            #expect(check.code == 0, "\(check.stderr)")
        }

        let removed = try await uninstall(prefix)
        #expect(removed.code == 0, "\(removed.stderr)")
        #expect(contents(of: prefix) == [])
    }

    @Test func reinstallingAndUninstallingKeepTheUsersFiles() async throws {
        let prefix = temporaryDirectory("prefix")
        // The user's data may share the folder: ~/.local/share/isobar is both the default install's data and $XDG_DATA_HOME/isobar.
        try FileManager.default.createDirectory(atPath: prefix + "/share/isobar", withIntermediateDirectories: true)
        try "cities".write(toFile: prefix + "/share/isobar/user.sqlite", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: prefix + "/share/man/man1", withIntermediateDirectories: true)
        try "other".write(toFile: prefix + "/share/man/man1/other.1", atomically: true, encoding: .utf8)
        let before = contents(of: prefix)

        #expect(try await install(prefix).code == 0)
        let again = try await install(prefix)
        #expect(again.code == 0, "\(again.stderr)")
        let manifest = try String(contentsOfFile: prefix + "/share/isobar/install-manifest.txt", encoding: .utf8)
        let entries = manifest.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(Set(entries).count == entries.count, "the manifest lists something twice")
        #expect(!entries.contains("share/isobar/"), "the folder existed before the install")
        #expect(!entries.contains { $0.contains("user.sqlite") })

        let removed = try await uninstall(prefix)
        #expect(removed.code == 0, "\(removed.stderr)")
        #expect(contents(of: prefix) == before)
        #expect(try String(contentsOfFile: prefix + "/share/isobar/user.sqlite", encoding: .utf8) == "cities")
    }

    @Test func usageErrorsAndAMissingInstall() async throws {
        let bogus = try await runExactly("/bin/bash", [script, "--bogus"], environment: environment())
        #expect(bogus.code == 64)
        #expect(bogus.stderr.split(separator: "\n").count == 1)
        let nothing = try await uninstall(temporaryDirectory("empty-prefix"))
        #expect(nothing.code == 1)
        #expect(nothing.stderr.contains("nothing to uninstall"))
        let noBinary = try await runExactly("/bin/bash", [script, "--prefix", temporaryDirectory("prefix"), "--binary", "/nonexistent/isobar"],
                                      environment: environment())
        #expect(noBinary.code == 1)
        #expect(noBinary.stderr.contains("no executable at /nonexistent/isobar"))
    }

    @Test func aBinaryWithoutItsDataSaysWhereItLookedAndHowToFixIt() async throws {
        let alone = temporaryDirectory("alone")
        try FileManager.default.copyItem(atPath: try binary(), toPath: alone + "/isobar")
        var above: [String] = []
        var folder = URL(fileURLWithPath: alone)
        while folder.path != "/" {
            above.append(folder.path + "/config")
            folder.deleteLastPathComponent()
        }
        let share = URL(fileURLWithPath: alone).deletingLastPathComponent().path + "/share/isobar"
        let searched = [share] + above + ["/config"]
        // Folders above the copy are searched too: a machine with data in one of them cannot show the failure.
        if let found = searched.first(where: { FileManager.default.fileExists(atPath: $0 + "/demo.json") }) {
            Issue.record("bundled data lies in \(found), which a binary in \(alone) finds; cannot test a binary without its data")
            return
        }
        for arguments in [["compare", "Minsk", "--demo"], ["now", "Minsk"], ["search", "Paris"], ["cities"], []] {
            let run = try await runExactly(alone + "/isobar", arguments, in: "/", environment: environment())
            #expect(run.code == ExitCode.configuration.rawValue, "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty)
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(run.stderr)")
            for folder in searched {
                #expect(run.stderr.contains(folder), "\(arguments): \(folder) not named in \(run.stderr)")
            }
            #expect(run.stderr.contains("ISOBAR_DATA_DIR") && run.stderr.contains("install.sh"))
        }
        let help = try await runExactly(alone + "/isobar", ["--help"], in: "/", environment: environment())
        #expect(help.code == 0)
        #expect(!help.stdout.contains("--demo"))
        #expect(help.stdout.contains("Note: cannot find the bundled data"))
        let coordinates = try await runExactly(alone + "/isobar", ["now", "53.9,27.57", "--offline"], in: "/", environment: environment())
        #expect(coordinates.code != ExitCode.configuration.rawValue, "coordinates need no bundled data: \(coordinates.stderr)")
    }

    @Test func aDataFolderWithoutTheDataIsNamedInTheError() async {
        let empty = temporaryDirectory("empty-data")
        let run = await runCLI(["compare", "Minsk", "--demo"], environment: ["ISOBAR_DATA_DIR": empty])
        #expect(run.code == ExitCode.configuration.rawValue)
        #expect(run.stderr == "isobar: cannot find the bundled data: ISOBAR_DATA_DIR is \(empty), which holds no demo.json; "
            + "set it to the folder holding demo.json, places.json, gazetteer/ and cassettes/, or unset it\n")
        let help = await runCLI(["--help"], environment: ["ISOBAR_DATA_DIR": empty])
        #expect(help.code == 0)
        #expect(!help.stdout.contains("--demo"))
        #expect(help.stdout.contains("Note: cannot find the bundled data: ISOBAR_DATA_DIR is \(empty)"))
    }

    @Test func manPageCoversEveryCommandOptionAndExitCode() async throws {
        let page = try String(contentsOfFile: packageRoot + "/docs/isobar.1", encoding: .utf8)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The first line of each entry (after .TP), its font macro and quotes left out: `cities add PLACE`.
        let entries = zip(lines, lines.dropFirst()).filter { $0.0 == ".TP" }.map { entry in
            entry.1.split(separator: " ", maxSplits: 1).dropFirst().joined().replacingOccurrences(of: "\"", with: "")
        }
        for spec in CommandTable.specs {
            #expect(entries.contains { $0.hasPrefix(spec.name + " ") || $0 == spec.name }, "no entry for \(spec.name)")
            for option in spec.options {
                let roff = "\\-\\-" + option.name.replacingOccurrences(of: "-", with: "\\-")
                #expect(page.contains(roff), "\(spec.name) --\(option.name) is not in the man page")
            }
            for action in spec.actions { #expect(page.contains(action), "\(spec.name) \(action) is not in the man page") }
        }
        for code in ExitCode.allCases { #expect(page.contains(".B \(code.rawValue)\n"), "exit code \(code.rawValue) is not in the man page") }
        #expect(page.contains("isobar \(IsobarCommandLine.version)"))
        #expect(page.contains("\\-V"))
        if let groff = systemTool("groff") {
            let check = try await runExactly(groff, ["-man", "-ww", "-z", packageRoot + "/docs/isobar.1"])
            #expect(check.code == 0 && check.stderr.isEmpty, "\(check.stderr)")
        }
    }
}
