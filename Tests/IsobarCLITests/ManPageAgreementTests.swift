import Foundation
@testable import IsobarCLI
import Testing

/// The man page (docs/isobar.1) and the guide's exit-code table say what the code does: the exit codes of `ExitCode`, the
/// commands, actions and options of the command table, each option's value and choices; nothing more, nothing less.
@Suite struct ManPageAgreementTests {
    /// The command table's specs by name, and the home view of a place as `PLACE`.
    private let specs = Dictionary(uniqueKeysWithValues: (CommandTable.specs + [Commands.place]).map { ($0.name, $0) })

    @Test func exitStatusListsEveryExitCodeOnce() throws {
        let entries = try ManPage.load().entries("EXIT STATUS")
        let codes = entries.compactMap { Int32($0.tag) }
        #expect(codes.count == entries.count, "entries that are not a number: \(entries.map(\.tag))")
        #expect(codes.sorted() == ExitCode.allCases.map(\.rawValue).sorted())
        for entry in entries { #expect(!entry.body.joined().trimmingCharacters(in: .whitespaces).isEmpty, "exit \(entry.tag) says nothing") }
    }

    @Test func theGuidesExitCodeTableListsEveryExitCodeOnce() throws {
        let guide = try #require(try MarkdownPage.all().first { $0.path == "docs/guide.md" })
        let lines = guide.lines.drop { $0 != "### Exit codes" }.dropFirst().prefix { !$0.hasPrefix("#") }
        let codes = lines.compactMap { line -> Int32? in
            guard line.hasPrefix("| ") else { return nil }
            return Int32(line.dropFirst(2).prefix { $0 != " " })
        }
        #expect(codes.sorted() == ExitCode.allCases.map(\.rawValue).sorted())
    }

    @Test func commandsAndTheirActionsAreTheCommandTables() throws {
        let entries = try ManPage.load().entries("COMMANDS")
        var actionsShown: [String: Set<String>] = [:]
        for entry in entries {
            let words = ManPage.words(entry.tag)
            guard let name = words.first, name != "help", name != "PLACE" else { continue }
            let spec = try #require(specs[name], "the man page describes \(name), which is not a command")
            var option: OptionSpec?
            for word in words.dropFirst() {
                if word.hasPrefix("--") {
                    option = spec.options.first { $0.name == word.dropFirst(2) }
                    #expect(option != nil, "\(entry.tag): \(name) takes no \(word)")
                } else if word.first?.isLowercase == true {
                    if let choices = option?.choices {
                        #expect(choices.contains(word), "\(entry.tag): \(word) is not a value of --\(option?.name ?? "")")
                    } else {
                        #expect(spec.actions.contains(word), "\(entry.tag): \(word) is not an action of \(name)")
                        actionsShown[name, default: []].insert(word)
                    }
                }
            }
        }
        for spec in CommandTable.specs {
            #expect(entries.contains { ManPage.words($0.tag).first == spec.name }, "the man page has no entry for \(spec.name)")
            let missing = Set(spec.actions).subtracting(actionsShown[spec.name] ?? [])
            #expect(missing.isEmpty, "the man page's entries for \(spec.name) leave out \(missing.sorted())")
        }
    }

    @Test func optionsAreTakenByTheCommandsTheirParagraphNames() throws {
        let groups = try ManPage.load().groups("OPTIONS")
        #expect(groups.count >= 8)
        for group in groups {
            let commands = ManPage.words(group.intro).compactMap { specs[$0] }
            #expect(!commands.isEmpty, "no command named in: \(group.intro)")
            for entry in group.entries {
                let words = ManPage.words(entry.tag)
                let name = try #require(words.first.flatMap { $0.hasPrefix("--") ? $0.dropFirst(2) : nil }, "an entry that is not an option: \(entry.tag)")
                let valueName = words.dropFirst().first { !$0.hasPrefix("-") }
                for spec in commands {
                    let option = spec.options.first { $0.name == name }
                    #expect(option != nil, "\(spec.name) takes no --\(name)")
                    guard let option else { continue }
                    #expect(option.valueName == valueName, "--\(name): the man page says \(valueName ?? "a flag"), \(spec.name) \(option.valueName ?? "a flag")")
                    let body = entry.body.joined(separator: " ")
                    for choice in option.choices ?? [] { #expect(body.contains(choice), "--\(name) does not say its value \(choice)") }
                }
            }
            if let except = group.intro.range(of: " except ") {
                // The options listed right after "except" (`--timeout, --record and --min-providers`).
                let excepted = ManPage.words(String(group.intro[except.upperBound...])).prefix { $0.hasPrefix("--") || $0 == "and" }
                    .filter { $0.hasPrefix("--") }.map { $0.dropFirst(2) }
                #expect(!excepted.isEmpty)
                for spec in commands {
                    for name in excepted { #expect(!spec.options.contains { $0.name == name }, "\(spec.name) does take --\(name)") }
                }
            }
        }
    }

    @Test func everyOptionOfEveryCommandIsInTheManPage() throws {
        let page = try ManPage.load()
        let tags = page.entries("OPTIONS").map(\.tag) + page.entries("COMMANDS").map(\.tag) + page.groups("OPTIONS").map(\.intro)
        let named = Set(tags.flatMap(ManPage.words).filter { $0.hasPrefix("--") }.map { String($0.dropFirst(2)) })
        for spec in CommandTable.specs {
            for option in spec.options { #expect(named.contains(option.name), "\(spec.name) --\(option.name) is not in the man page") }
        }
    }

    @Test func roffReadsAsPlainText() {
        #expect(ManPage.plain(#".BI "forecast " PLACE " \fR[\fB\-\-days \fIN\fR] [\fB\-\-hourly\fR]""#) == "forecast PLACE [--days N] [--hourly]")
        #expect(ManPage.plain(#".BR "cache " [ stats | clear | prune ]"#) == "cache [stats|clear|prune]")
        #expect(ManPage.plain(#".B """enabled"": false""#) == "\"enabled\": false")
        #expect(ManPage.plain(#".BR \-\-verbose ", " \-v"#) == "--verbose, -v")
        #expect(ManPage.words("providers new NAME --lang python|sh|swift") == ["providers", "new", "NAME", "--lang", "python", "sh", "swift"])
        #expect(ManPage.words("--weights ID=W,... (see --help.)") == ["--weights", "ID=W,...", "see", "--help"])
        let page = ManPage(lines: [".SH OPTIONS", "Intro", ".TP", ".B \\-\\-a", "about a", ".PP", ".B x", "takes:", ".TP", ".BI \\-\\-b \" N\"", "b", ".SH NEXT"])
        let groups = page.groups("OPTIONS")
        #expect(groups.map(\.intro) == ["Intro", "x takes:"])
        #expect(groups.map { $0.entries.map(\.tag) } == [["--a"], ["--b N"]])
    }
}
