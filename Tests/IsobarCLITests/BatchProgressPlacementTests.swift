#if canImport(Glibc)
import Glibc
#endif
@testable import IsobarCLI
@testable import IsobarRender
import Testing

/// A sink that says it is a terminal, and which one.
private struct FakeTerminal: OutputSink {
    let device: UInt64?
    let terminal: Bool
    func write(_ text: String) {}
    func flush() {}
    var isTerminal: Bool { terminal }
    var terminalDevice: UInt64? { device }
}

/// The batch progress line is drawn on stderr only when that is a terminal other than the one the rows go to.
@Suite struct BatchProgressPlacementTests {
    @Test func theLineStaysOffTheTerminalOfTheRows() {
        let pipe = FakeTerminal(device: nil, terminal: false)
        let first = FakeTerminal(device: 0x8801, terminal: true)
        let second = FakeTerminal(device: 0x8802, terminal: true)
        let unnamed = FakeTerminal(device: nil, terminal: true)
        #expect(BatchProgress.belongs(on: first, besides: pipe), "rows into a file or a pipe")
        #expect(!BatchProgress.belongs(on: first, besides: first), "rows on the same terminal")
        #expect(BatchProgress.belongs(on: first, besides: second), "rows on another terminal")
        #expect(!BatchProgress.belongs(on: first, besides: unnamed), "a terminal that does not say which counts as the same")
        #expect(!BatchProgress.belongs(on: pipe, besides: pipe), "stderr not a terminal")
        #expect(!BatchProgress.belongs(on: pipe, besides: first))
    }

    @Test func aTerminalSaysWhichItIs() throws {
        // /dev/ptmx by hand, as in TerminalWidthTests: TIOCSPTLCK and TIOCGPTN written out.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(ioctl(master, 0x4004_5431, &unlock) == 0)
        try #require(ioctl(master, 0x8004_5430, &number) == 0)
        let one = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        let two = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        try #require(one >= 0 && two >= 0)
        defer { close(one); close(two) }
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let rows = StandardStream(descriptor: one)
        let line = StandardStream(descriptor: two)
        let file = StandardStream(descriptor: ends[1])
        #expect(rows.terminalDevice != nil)
        #expect(rows.terminalDevice == line.terminalDevice)
        #expect(file.terminalDevice == nil)
        #expect(!BatchProgress.belongs(on: line, besides: rows))
        #expect(BatchProgress.belongs(on: line, besides: file))
        #expect(ASCIISink(base: line, conversion: .fold).terminalDevice == line.terminalDevice)
    }
}
