// The README's and docs' examples run as written: every `isobar … --demo` command of a ```sh block, or after a `$ ` prompt
// in a block of output, is run by bash (with pipefail) against the debug build, in an empty folder, and must exit 0, or the
// code its comment states (`# exits 2: …`); and output shown whole under such a command is what the command prints.
import Foundation
import Testing

/// One `isobar … --demo` command from a shell block of the documentation.
struct DocumentedExample: Sendable, CustomTestStringConvertible {
    /// The page it is on, e.g. `docs/guide.md`.
    let page: String
    /// The line of the block's opening fence.
    let line: Int
    /// The command as written.
    let command: String

    var testDescription: String { "\(page):\(line): \(command)" }

    /// The exit code the command's comment states (`# exits 2: …`, `# exit 2`), else 0.
    var expectedCode: Int32 {
        guard let comment = command.range(of: " #")?.upperBound,
              let match = command[comment...].firstMatch(of: /\bexits? (\d+)\b/) else { return 0 }
        return Int32(match.1) ?? 0
    }

    /// The command as bash runs it: the README's first line installs packages (CI has done so) and builds (the test runs
    /// the debug build `swift run` would run), so `scripts/install-deps.sh &&` is left out and `swift run isobar` is `isobar`;
    /// and a weather command gets the longest `--timeout`, as `withRoomyDeadline` gives in-process runs, so that a loaded
    /// machine cannot turn a replayed provider into a timeout.
    var runnable: String {
        let plain = command.replacingOccurrences(of: "scripts/install-deps.sh && ", with: "")
            .replacingOccurrences(of: "swift run isobar ", with: "isobar ")
        guard !plain.contains("--timeout") else { return plain }
        return plain.replacing(#/\bisobar (compare|now|forecast) /#) { "isobar \($0.1) --timeout 600 " }
    }

    /// Whether it needs DuckDB's Python package, which only some machines have.
    var needsPythonPackages: Bool { command.contains("duckdb") }

    /// Every such command of README.md and docs/*.md: in ```sh blocks, and after a `$ ` prompt in blocks of output.
    static func all() throws -> [DocumentedExample] {
        try MarkdownPage.all().flatMap { page in
            page.blocks.filter { $0.info == "sh" || ($0.info.isEmpty && $0.lines.contains { $0.hasPrefix("$ ") }) }.flatMap { block in
                block.commands.filter(isDemoRun).map { DocumentedExample(page: page.path, line: block.line, command: $0) }
            }
        }
    }

    /// Whether a command runs `isobar` with `--demo`.
    static func isDemoRun(_ command: String) -> Bool {
        let code = command.range(of: " #").map { String(command[..<$0.lowerBound]) } ?? command
        return code.contains(/(^|[\s|;&(])isobar\s/) && code.contains(/\s--demo(\s|$)/)
    }

    /// The examples, or none when the pages cannot be read (the links suite reports that).
    static let found: [DocumentedExample] = (try? all()) ?? []
}

/// A block of output shown under one `$ isobar … --demo` command, whole (no line left out as `…`).
struct ShownOutput: Sendable, CustomTestStringConvertible {
    /// The page it is on.
    let page: String
    /// The line of the block's opening fence.
    let line: Int
    /// The command's arguments after `isobar`.
    let arguments: [String]
    /// The lines shown under the command.
    let output: [String]

    var testDescription: String { "\(page):\(line): isobar \(arguments.joined(separator: " "))" }

    /// Every such block of README.md and docs/*.md: one prompt, a plain command (no pipe, redirection or variable).
    static func all() throws -> [ShownOutput] {
        try MarkdownPage.all().flatMap { page in
            page.blocks.compactMap { block -> ShownOutput? in
                guard block.info.isEmpty, let first = block.lines.first, first.hasPrefix("$ "),
                      block.lines.filter({ $0.hasPrefix("$ ") }).count == 1, !block.lines.contains("…") else { return nil }
                let command = String(first.dropFirst(2)).replacingOccurrences(of: "swift run isobar ", with: "isobar ")
                guard DocumentedExample.isDemoRun(command), !command.contains(where: "|<>=#".contains) else { return nil }
                let words = shellWords(command)
                guard words.first == "isobar" else { return nil }
                return ShownOutput(page: page.path, line: block.line, arguments: Array(words.dropFirst()), output: Array(block.lines.dropFirst()))
            }
        }
    }

    /// The blocks, or none when the pages cannot be read (the links suite reports that).
    static let found: [ShownOutput] = (try? all()) ?? []
}

/// A command's words as a shell splits them, with single and double quotes.
func shellWords(_ command: String) -> [String] {
    var words: [String] = []
    var current: String?
    var quote: Character?
    for character in command {
        if let open = quote {
            if character == open { quote = nil } else { current!.append(character) }
        } else if character == "\"" || character == "'" {
            quote = character
            current = current ?? ""
        } else if character == " " {
            if let word = current { words.append(word) }
            current = nil
        } else {
            current = (current ?? "") + String(character)
        }
    }
    if let word = current { words.append(word) }
    return words
}

/// Runs one example in an empty folder, with the debug build first on PATH and the test runs' clock and data.
private func run(_ example: DocumentedExample) async throws -> CLIRun {
    let executable = try #require(isobarExecutable(), "build the isobar executable first (swift build)")
    let binaries = URL(fileURLWithPath: executable).deletingLastPathComponent().path
    let inherited = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let environment = ["PATH": binaries + ":" + inherited, "ISOBAR_DATA_DIR": dataDirectory, "HOME": temporaryDirectory("home"),
                       "XDG_CONFIG_HOME": temporaryDirectory("config"), "XDG_CACHE_HOME": temporaryDirectory("cache"),
                       "XDG_DATA_HOME": temporaryDirectory("data"), "ISOBAR_TIME_SHIFT": recordingTimeShift]
    return try await runExactly("/bin/bash", ["-o", "pipefail", "-c", example.runnable], in: temporaryDirectory("example"),
                                environment: environment)
}

/// One example at a time: each is a process of its own beside the rest of the suite.
@Suite(.tags(.realTime), .serialized) struct DocumentedExamplesTests {
    @Test func theReadmeOpensWithTheDemoAndItsExamplesAreFound() throws {
        let readme = DocumentedExample.found.filter { $0.page == "README.md" }
        #expect(readme.first?.command.hasPrefix("scripts/install-deps.sh && swift run isobar compare Minsk --demo") == true)
        #expect(readme.count >= 4, "\(readme.map(\.command))")
        #expect(Set(DocumentedExample.found.map(\.page)).isSuperset(of: ["README.md", "docs/guide.md", "docs/json-lines.md"]))
    }

    @Test(arguments: DocumentedExample.found.filter { !$0.needsPythonPackages })
    func runsAsWritten(_ example: DocumentedExample) async throws {
        let result = try await run(example)
        #expect(result.code == example.expectedCode, "\(result.stderr)\(result.stdout.suffix(1_500))")
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test(.enabled("python3 with duckdb is not installed: those examples are not run") {
        await Python.has("duckdb")
    }, arguments: DocumentedExample.found.filter(\.needsPythonPackages))
    func runsAsWrittenWithPython(_ example: DocumentedExample) async throws {
        let result = try await run(example)
        #expect(result.code == example.expectedCode, "\(result.stderr)")
    }

    @Test(arguments: ShownOutput.found)
    func outputShownIsWhatTheCommandPrints(_ shown: ShownOutput) async {
        let run = await runCLI(shown.arguments)
        #expect(run.code == 0, "\(run.stderr)")
        let printed = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(printed.dropLast() == shown.output[...])
    }

    @Test func theReadmesDemoOutputIsChecked() {
        #expect(ShownOutput.found.contains { $0.page == "README.md" && $0.arguments == ["compare", "Minsk", "--demo"] })
        #expect(shellWords(#"isobar compare "New York" --demo 'a b'"#) == ["isobar", "compare", "New York", "--demo", "a b"])
    }

    @Test func examplesAreReadFromShellBlocks() {
        let block = FencedBlock(info: "sh", lines: [
            "# a comment", "isobar compare Minsk --demo   # compare", "isobar archive prune --older-than 30d",
            "printf 'Minsk\\n' | isobar batch --demo \\", "  --kind daily   # exits 2: a reason", "",
        ], line: 1)
        #expect(block.commands == ["isobar compare Minsk --demo   # compare", "isobar archive prune --older-than 30d",
                                   "printf 'Minsk\\n' | isobar batch --demo  --kind daily   # exits 2: a reason"])
        let demo = block.commands.filter(DocumentedExample.isDemoRun).map { DocumentedExample(page: "p", line: 1, command: $0) }
        #expect(demo.map(\.expectedCode) == [0, 2])
        let prompted = FencedBlock(info: "sh", lines: ["$ isobar now Tokyo --demo", "Tokyo, Tokyo, JP", "$ cp a b"], line: 1)
        #expect(prompted.commands == ["isobar now Tokyo --demo", "cp a b"])
        #expect(!DocumentedExample.isDemoRun("isobar-bench batch --demo"))
        #expect(!DocumentedExample.isDemoRun("isobar compare Minsk   # not --demo"))
        #expect(DocumentedExample(page: "p", line: 1, command: "scripts/install-deps.sh && swift run isobar compare Minsk --demo").runnable
                == "isobar compare --timeout 600 Minsk --demo")
        #expect(DocumentedExample(page: "p", line: 1, command: "printf 'Minsk' | isobar batch --demo").runnable == "printf 'Minsk' | isobar batch --demo")
    }
}
