#if canImport(Glibc)
import Glibc
#endif
@testable import IsobarCLI
import IsobarCore
@testable import IsobarRender
import Testing

@Suite struct TerminalWidthTests {
    @Test func columnsWinsWhenItIsAPositiveNumber() {
        let sink = BufferedSink()
        #expect(TerminalWidth.resolve(environment: ["COLUMNS": "80"], output: sink) == 80)
        #expect(TerminalWidth.resolve(environment: ["COLUMNS": " 132 "], output: sink) == 132)
        #expect(TerminalWidth.resolve(environment: ["COLUMNS": "5"], output: sink) == TerminalWidth.minimum)
        for invalid in ["", "0", "-3", "wide", "80x"] {
            #expect(TerminalWidth.resolve(environment: ["COLUMNS": invalid], output: sink) == nil, "\(invalid)")
        }
        #expect(TerminalWidth.resolve(environment: [:], output: sink) == nil)
    }

    @Test func aTerminalSaysItsWidth() throws {
        // /dev/ptmx by hand: posix_openpt and friends are not in the Glibc module. TIOCSPTLCK and TIOCGPTN are
        // function-like macros, so their values are written out (the same on every Linux architecture Swift runs on).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(ioctl(master, 0x4004_5431, &unlock) == 0)
        try #require(ioctl(master, 0x8004_5430, &number) == 0)
        let name = "/dev/pts/\(number)"
        let slave = open(name, O_RDWR | O_NOCTTY)
        try #require(slave >= 0)
        defer { close(slave) }
        var size = winsize()
        size.ws_col = 57
        size.ws_row = 20
        try #require(ioctl(master, UInt(TIOCSWINSZ), &size) == 0)
        let terminal = StandardStream(descriptor: slave)
        #expect(terminal.isTerminal)
        #expect(terminal.columns == 57)
        #expect(TerminalWidth.resolve(environment: [:], output: terminal) == 57)
        #expect(TerminalWidth.resolve(environment: ["COLUMNS": "100"], output: terminal) == 100)
    }

    @Test func aPipeHasNoWidth() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let stream = StandardStream(descriptor: ends[1])
        #expect(!stream.isTerminal)
        #expect(TerminalWidth.resolve(environment: [:], output: stream) == nil)
    }

    @Test func cellsCountWideCharactersTwiceAndMarksAndEscapesNever() {
        #expect("Minsk".cellWidth == 5)
        #expect("東京".cellWidth == 4)
        #expect("東京, 東京都, JP".cellWidth == 16)
        #expect("Zu\u{308}rich".cellWidth == 6)
        #expect("Zürich".cellWidth == 6)
        #expect("Москва".cellWidth == 6)
        #expect("서울".cellWidth == 4)
        #expect("\u{1B}[1mbold\u{1B}[0m".cellWidth == 4)
        #expect("-0.5 (-0.7…-0.3)".cellWidth == 16)
        #expect("SW 227°".cellWidth == 7)
        #expect("☀️".cellWidth == 2)
        #expect("a\u{200B}b".cellWidth == 2)
    }

    @Test func truncationCountsCellsAndKeepsEscapes() {
        #expect("partly cloudy".truncated(toCells: 7) == "partly…")
        #expect("partly cloudy".truncated(toCells: 13) == "partly cloudy")
        #expect("東京都庁舎".truncated(toCells: 6) == "東京…")
        #expect("東京都庁舎".truncated(toCells: 6).cellWidth == 5)
        #expect("\u{1B}[31m1234567\u{1B}[0m".truncated(toCells: 4) == "\u{1B}[31m123\u{1B}[0m…")
    }

    @Test func wrappedLinesFitAndKeepEveryWord() {
        let line = "Humidity 54 % · Wind 2.9 m/s from WNW 283°, gusts 6.7 m/s · Pressure 1020.9 hPa · Cloud cover 18 % · 東京 東京都"
        for width in 20...80 {
            let lines = TextWrap.wrap(line, width: width)
            #expect(lines.allSatisfy { $0.cellWidth <= width }, "\(width): \(lines)")
            #expect(lines.joined(separator: " ").split(separator: " ") == line.split(separator: " "), "\(width)")
            #expect(lines.dropFirst().allSatisfy { !$0.trimmingSpaces().hasPrefix("·") }, "\(width): \(lines)")
        }
        #expect(TextWrap.wrap("short", width: 40) == ["short"])
        #expect(TextWrap.wrap("  a-very-long-path/with/no/spaces/at/all", width: 20).allSatisfy { $0.cellWidth <= 20 })
        #expect(TextWrap.fit("one\ntwo", width: nil) == "one\ntwo")
    }

    @Test func compassPointsFollowTheDocumentedSectors() {
        // The sectors in whole degrees, as documented on `Compass`.
        let starts = [349, 12, 34, 57, 79, 102, 124, 147, 169, 192, 214, 237, 259, 282, 304, 327]
        for degrees in 0..<360 {
            let index = (starts.lastIndex { $0 <= degrees && $0 != 349 } ?? 0)
            let expected = degrees >= 349 ? "N" : Compass.points[index]
            #expect(Compass.point(Double(degrees)) == expected, "\(degrees)°")
        }
        #expect(Compass.text(227) == "SW 227°")
        #expect(Compass.text(283.4) == "WNW 283°")
        #expect(Compass.text(359.6) == "N 0°")
        #expect(Compass.text(-90) == "W 270°")
        #expect(Compass.text(11.4) == "N 11°")
        #expect(Compass.text(11.6) == "NNE 12°")
    }
}
