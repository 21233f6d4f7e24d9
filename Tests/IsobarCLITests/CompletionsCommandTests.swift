import Foundation
@testable import IsobarCLI
import Testing

/// `isobar completions bash|zsh|fish`: generated from the command table, valid in each shell, and completing what the commands take.
@Suite struct CompletionsCommandTests {
    /// Writes the script for `shell` to a temporary file and returns its path.
    func scriptFile(_ shell: String) async throws -> String {
        let run = await runCLI(["completions", shell])
        try #require(run.code == 0, "\(run.stderr)")
        let path = temporaryDirectory("completions") + "/isobar.\(shell)"
        try run.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// What the bash script at `path` offers for `words`, the last one being completed.
    func bashOffers(_ path: String, _ words: [String]) async throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let run = try await runExactly("/bin/bash", ["-c", "source '\(path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _isobar; printf '%s\\n' \"${COMPREPLY[@]}\""])
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        return run.lines
    }

    @Test(arguments: CompletionShell.allCases)
    func scriptNamesEveryCommandOptionAndChoice(shell: CompletionShell) async {
        let run = await runCLI(["completions", shell.rawValue])
        #expect(run.code == 0)
        #expect(run.stderr.isEmpty)
        for spec in CommandTable.specs {
            #expect(run.stdout.contains(spec.name), "\(shell) misses the command \(spec.name)")
            for option in spec.options {
                let spelling = shell == .fish ? "-l \(option.name)" : "--\(option.name)"
                #expect(run.stdout.contains(spelling), "\(shell) misses \(spec.name) --\(option.name)")
            }
            if !spec.actions.isEmpty { #expect(run.stdout.contains(spec.actions.joined(separator: " "))) }
        }
        #expect(run.stdout.contains("metric imperial standard"))
        #expect(run.stdout.contains("table jsonl"))
        #expect(run.stdout.contains("bash zsh fish"))
    }

    @Test func unknownOrMissingShellIsAUsageError() async {
        let unknown = await runCLI(["completions", "powershell"])
        #expect(unknown.code == ExitCode.usage.rawValue)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr == "isobar: no completions for the shell 'powershell'; shells are bash, zsh, fish\n")
        let typo = await runCLI(["completions", "zhs"])
        #expect(typo.code == ExitCode.usage.rawValue)
        #expect(typo.stderr.contains("did you mean 'zsh'?"))
        let missing = await runCLI(["completions"])
        #expect(missing.code == ExitCode.usage.rawValue)
        #expect(missing.stderr.split(separator: "\n").count == 1)
    }

    @Test func helpNamesTheShells() async {
        let run = await runCLI(["completions", "--help"])
        #expect(run.code == 0)
        #expect(run.stdout.contains("Usage: isobar completions SHELL [options]"))
        #expect(run.stdout.contains("bash") && run.stdout.contains("zsh") && run.stdout.contains("fish"))
    }

    @Test func bashScriptParses() async throws {
        let check = try await runExactly("/bin/bash", ["-n", try await scriptFile("bash")])
        #expect(check.code == 0, "\(check.stderr)")
    }

    @Test func bashCompletesCommandsOptionsValuesAndActions() async throws {
        let commands = CommandTable.specs.map(\.name) + ["help"]
        let script = try await scriptFile("bash")
        func offers(_ words: [String]) async throws -> [String] { try await bashOffers(script, words) }
        #expect(try await offers(["isobar", ""]) == commands)
        #expect(try await offers(["isobar", "-"]) == ["--help", "-h", "--version", "-V"])
        #expect(try await offers(["isobar", "compare", "Minsk", "--units", ""]) == ["metric", "imperial", "standard"])
        #expect(try await offers(["isobar", "compare", "--units", "=", "im"]) == ["imperial"])
        #expect(try await offers(["isobar", "forecast", "Minsk", "--ho"]) == ["--hourly"])
        #expect(try await offers(["isobar", "cities", ""]) == ["list", "add", "remove", "rm", "move"])
        #expect(try await offers(["isobar", "cities", "--format", "jsonl", "a"]) == ["add"])
        #expect(try await offers(["isobar", "cities", "add", ""]) == [])
        #expect(try await offers(["isobar", "cache", "--f"]) == ["--format"])
        #expect(try await offers(["isobar", "completions", ""]) == ["bash", "zsh", "fish"])
        #expect(try await offers(["isobar", "help", "fo"]) == ["forecast"])
    }

    @Test(.enabled(if: systemTool("zsh") != nil, "zsh is not installed: the zsh script is not syntax-checked"))
    func zshScriptParses() async throws {
        let check = try await runExactly(try #require(systemTool("zsh")), ["-n", try await scriptFile("zsh")])
        #expect(check.code == 0, "\(check.stderr)")
    }

    @Test(.enabled(if: systemTool("fish") != nil, "fish is not installed: the fish script is not checked"))
    func fishScriptParsesAndCompletes() async throws {
        let fish = try #require(systemTool("fish"))
        let path = try await scriptFile("fish")
        let check = try await runExactly(fish, ["-n", path])
        #expect(check.code == 0, "\(check.stderr)")
        func offers(_ line: String) async throws -> [String] {
            let run = try await runExactly(fish, ["--no-config", "-c", "source '\(path)'; complete -C '\(line)'"],
                                           environment: ["PATH": "/usr/bin:/bin", "HOME": temporaryDirectory("fish-home")])
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            return run.lines.map { String($0.prefix { $0 != "\t" }) }
        }
        #expect(try await offers("isobar ").sorted() == (CommandTable.specs.map(\.name) + ["help"]).sorted())
        #expect(try await offers("isobar compare Minsk --units ").sorted() == ["imperial", "metric", "standard"])
        #expect(try await offers("isobar cities ").sorted() == ["add", "list", "move", "remove", "rm"])
        #expect(try await offers("isobar cities add ") == [])
        #expect(try await offers("isobar forecast Minsk --ho") == ["--hourly"])
    }
}
