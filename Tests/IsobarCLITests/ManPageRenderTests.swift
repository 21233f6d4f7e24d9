import Foundation
import Testing

/// docs/isobar.1 renders: groff reads it without a warning, and its examples come out as written.
@Suite struct ManPageRenderTests {
    static let page = packageRoot + "/docs/isobar.1"

    @Test(.enabled(if: systemTool("groff") != nil, "groff is not installed (scripts/install-deps.sh installs groff-base): the man page is not rendered"))
    func thePageRendersWithoutWarningsAndShowsItsExamples() async throws {
        let run = try await runExactly(try #require(systemTool("groff")), ["-ww", "-man", "-Tutf8", "-P-cbou", Self.page],
                                       environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        #expect(run.code == 0)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        let text = run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains(#"{"id": "a1", "place": "Minsk"}"#))
        #expect(text.contains(#"{"id": "a1", "latitude": 53.9, "longitude": 27.57}"#))
        #expect(text.contains(#"{"id": NAME, "type": "exec", "command": [PATH]}"#))
    }

    @Test func noMacroArgumentBreaksOnAQuote() throws {
        let source = try String(contentsOfFile: Self.page, encoding: .utf8)
        let problems = source.split(separator: "\n").enumerated().compactMap { index, line in
            Self.quoteProblem(String(line)).map { "line \(index + 1): \($0): \(line)" }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(Self.quoteProblem(#".B {"id": "a1"}"#) != nil)
        #expect(Self.quoteProblem(#".BR "{"id": 1}" ."#) != nil)
        #expect(Self.quoteProblem(#".BR "{\(dqid\(dq: 1}" ."#) == nil)
        #expect(Self.quoteProblem(#".B """enabled"": false""#) == nil)
    }

    /// What is wrong with the quotes of a macro line's arguments, or nil: a `"` inside an unquoted argument, or a quoted
    /// argument that closes in the middle of a word (a `"` meant as text; write `\(dq` or `""` instead).
    static func quoteProblem(_ line: String) -> String? {
        guard line.hasPrefix("."), !line.hasPrefix(".\\\"") else { return nil }
        let characters = Array(line.drop { $0 != " " })
        var index = 0
        while index < characters.count {
            if characters[index] == " " {
                index += 1
                continue
            }
            if characters[index] == "\"" {
                index += 1
                while index < characters.count {
                    if characters[index] == "\"" {
                        if index + 1 < characters.count && characters[index + 1] == "\"" {
                            index += 2
                            continue
                        }
                        break
                    }
                    index += 1
                }
                guard index < characters.count else { return "an argument's quote is never closed" }
                index += 1
                if index < characters.count && characters[index] != " " { return "a quoted argument ends inside a word" }
            } else {
                while index < characters.count && characters[index] != " " {
                    if characters[index] == "\"" { return "a quote inside an unquoted argument" }
                    index += 1
                }
            }
        }
        return nil
    }
}
