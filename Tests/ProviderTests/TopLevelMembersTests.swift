import FoundationEssentials
import IsobarCore
@testable import OpenMeteo
import Testing

/// The cut of unasked blocks reads eight bytes at a time: it must find every string, bracket and escape wherever it falls.
@Suite("Open-Meteo: cutting top-level members")
struct TopLevelMembersTests {
    private func cut(_ dropped: Set<String>, _ text: String) -> String? {
        TopLevelMembers.removing(dropped, from: Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func everyCassetteDecodesTheSameWithItsUnaskedBlocksCut() throws {
        for city in ["london", "minsk", "moscow", "new-york", "sao-paulo", "tokyo"] {
            let whole = response(200, try Fixtures.bodyText("open-meteo", city, urlContaining: "/v1/forecast"))
            let all = try OpenMeteoDecoder().decode(whole, now: Fixtures.recordedAt)
            for kinds: Set<DataKind> in [[.current], [.hourly], [.daily], [.current, .hourly], Set(DataKind.allCases)] {
                let decoded = try OpenMeteoDecoder().decode(whole, now: Fixtures.recordedAt, models: [], kinds: kinds)[0]
                #expect(decoded.current == (kinds.contains(.current) ? all.current : nil), "\(city) \(kinds)")
                let steps = !kinds.isDisjoint(with: [.hourly, .daily])
                #expect(decoded.hourly == (steps ? all.hourly : []), "\(city) \(kinds)")
                #expect(decoded.daily == (steps ? all.daily : []), "\(city) \(kinds)")
                #expect(decoded.utcOffsetSeconds == all.utcOffsetSeconds)
                #expect(decoded.timeZoneIdentifier == all.timeZoneIdentifier)
            }
        }
    }

    @Test func stringsBracketsAndEscapesAreFoundAtEveryOffset() {
        // Each dropped value puts its tricky bytes at another offset of an eight-byte word.
        for padding in 0..<20 {
            let pad = String(repeating: "1", count: padding)
            let dropped = #"{"time": ["\#(pad)\"]}[{", "x\\"], "n": [\#(pad), 2.5, null], "o": {"k\#(pad)": "}]"}}"#
            let kept = #""current": {"s": "\#(pad)]\\\"", "a": [[\#(pad)], {}]}"#
            let text = #"{ "hourly" :\#(dropped) , \#(kept),"daily":[\#(pad)"\#(pad)"]}"#
            #expect(cut(["hourly", "daily"], text) == "{\(kept)}", "padding \(padding)")
            #expect(cut([], text) == text)
            #expect(cut(["current"], text) == #"{"hourly" :\#(dropped),"daily":[\#(pad)"\#(pad)"]}"#, "padding \(padding)")
        }
    }

    @Test func aBodyThatEndsInsideADroppedValueIsNotCut() {
        let text = #"{"current": {"a": 1}, "hourly": {"time": ["2026-11-28T09:00", "2026-11-28T10:00"], "t": [1.5, 2.5, 3.5, 4.5]}}"#
        #expect(cut(["hourly"], text) == #"{"current": {"a": 1}}"#)
        for end in 1..<text.utf8.count {
            let prefix = String(decoding: Array(text.utf8)[..<end], as: UTF8.self)
            #expect(cut(["hourly"], prefix) == nil, "cut at \(end)")
        }
        #expect(cut(["hourly"], text + " x") == nil)
        #expect(cut(["hourly"], #"{"hourly": "unterminated \"}"#) == nil)
        #expect(cut(["hourly"], #"{"hourly": "ends in a backslash \"#) == nil)
    }
}
