import Foundation
@testable import IsobarCLI
import IsobarCore
import IsobarEngine
@testable import IsobarRender
import Testing

@Suite struct PresentationTests {
    func options(_ arguments: [String], command: CommandSpec = Commands.forecast) throws -> CommandOptions {
        try Invocation(["Minsk"] + arguments, command: command).options
    }

    @Test func sentencesWhenAskedOrOnADumbTerminal() throws {
        #expect(Presentation(try options(["--plain"]), environment: [:]).plain)
        #expect(Presentation(try options([]), environment: ["TERM": "dumb"]).plain)
        #expect(!Presentation(try options([]), environment: ["TERM": "xterm-256color"]).plain)
        #expect(!Presentation(try options(["--chart"]), environment: ["TERM": "dumb"]).plain, "a chart asked for is drawn")
        #expect(!Presentation(try options(["--json"]), environment: ["TERM": "dumb"]).plain, "JSON lines stay JSON lines")
    }

    @Test func theHoursAChartOrTheGlanceLineNeedAreAskedFor() throws {
        let compare = Presentation(try options(["--chart"], command: Commands.compare), environment: [:])
        #expect(compare.kinds(for: .compare, format: .table) == [.current, .hourly])
        #expect(Presentation(try options([], command: Commands.compare), environment: [:]).kinds(for: .compare, format: .table) == [.current])
        let now = Presentation(try options([], command: Commands.now), environment: [:])
        #expect(now.kinds(for: .now, format: .table) == [.current, .hourly], "for the glance line")
        #expect(now.kinds(for: .now, format: .jsonl) == [.current], "JSON lines of now are unchanged")
        #expect(now.kinds(for: .forecast(days: 2, hourly: false), format: .table) == [.hourly, .daily])
    }

    @Test func theLocaleAndAsciiChooseTheCharacters() throws {
        #expect(Presentation(try options(["--chart"]), environment: ["LANG": "en_US.UTF-8"]).glyphs == .unicode)
        #expect(Presentation(try options(["--chart", "--ascii"]), environment: ["LANG": "en_US.UTF-8"]).glyphs == .ascii)
        #expect(Presentation(try options(["--chart"]), environment: ["LANG": "POSIX"]).glyphs == .ascii)
    }
}
