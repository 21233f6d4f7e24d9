@testable import IsobarPlaces
import Testing

@Suite("Search folding")
struct SearchFoldingTests {
    @Test(arguments: [
        ("Zürich", "zurich"), ("São Paulo", "sao paulo"), ("Łódź", "lodz"), ("Straße", "strasse"), ("Æbeltoft", "aebeltoft"),
        ("Øresund", "oresund"), ("Ærø", "aero"), ("Hà Nội", "ha noi"), ("Đà Nẵng", "da nang"), ("Ciudad Juárez", "ciudad juarez"),
        ("Ștefănești", "stefanesti"), ("İstanbul", "istanbul"), ("Əhmədbəyli", "ehmedbeyli"), ("Þórshöfn", "thorshofn"),
        ("Ёлка", "елка"), ("Пётр", "петр"), ("Йошкар-Ола", "йошкар ола"), ("Αθήνα", "αθηνα"), ("ΆΈΉΊΌΎΏ", "αεηιουω"),
        ("Ϊ ΐ ϋ ΰ", "ι ι υ υ"), ("ΟΔΟΣ", "οδοσ"), ("東京", "東京"), ("St. Louis", "st louis"), ("Winston-Salem", "winston salem"),
        ("N'Djamena", "ndjamena"), ("Ra’anana", "raanana"), ("  New   York  ", "new york"), ("Zu\u{0308}rich", "zurich"),
        ("Frankfurt (Oder)", "frankfurt oder"), ("MINSK", "minsk"), ("ǅemal", "dzemal"),
    ])
    func folds(text: String, folded: String) {
        #expect(SearchFolding.foldedString(text) == folded)
    }

    @Test func bytesFoldLikeStrings() {
        for text in ["Zürich", "Москва", "東京都", "Ærø", "St. Louis", "İzmir", "  a  b "] {
            let bytes = Array(text.utf8)
            var folded: [UInt32] = []
            bytes.withUnsafeBufferPointer { SearchFolding.fold(utf8: $0, 0..<bytes.count, into: &folded) }
            #expect(folded == SearchFolding.fold(text), "\(text)")
        }
    }

    @Test func malformedUTF8FoldsToReplacementCharacters() {
        let bytes: [UInt8] = [0x61, 0xFF, 0xC3, 0x62, 0xE2, 0x82]
        var folded: [UInt32] = []
        bytes.withUnsafeBufferPointer { SearchFolding.fold(utf8: $0, 0..<bytes.count, into: &folded) }
        #expect(folded == [0x61, 0xFFFD, 0xFFFD, 0x62, 0xFFFD, 0xFFFD])
    }

    /// The script sorted the index with Python's folding; Swift's must give the same order, or binary search would miss names.
    @Test func bundledIndexIsSortedBySwiftFolding() throws {
        let data = try GazetteerFile.load(path: Fixture.gazetteerPath)
        var previous: [UInt32] = []
        var current: [UInt32] = []
        var disorder = 0
        data.bytes.withUnsafeBufferPointer { bytes in
            for number in data.sorted {
                let name = data.names[Int(number)]
                SearchFolding.fold(utf8: bytes, Int(name.start)..<Int(name.end), into: &current)
                if current.lexicographicallyPrecedes(previous) { disorder += 1 }
                swap(&previous, &current)
            }
        }
        #expect(disorder == 0)
        #expect(data.sorted.count == data.names.count)
        #expect(Set(data.sorted).count == data.sorted.count)
    }

    @Test(arguments: [
        ("moscow", "mosow", true), ("moscow", "moscwo", true), ("moscow", "mxscow", true), ("moscow", "mooscow", true),
        ("moscow", "moscow", true), ("moscow", "omscow", true), ("moscow", "moscowx", true), ("moscow", "mscw", false),
        ("moscow", "mocsow", true), ("moscow", "msocwo", false), ("london", "lodnno", false), ("ab", "ba", true), ("abc", "", false),
    ])
    func oneEdit(a: String, b: String, expected: Bool) {
        let left = a.unicodeScalars.map(\.value)
        let right = b.unicodeScalars.map(\.value)
        #expect(isWithinOneEdit(left, right) == expected)
        #expect(isWithinOneEdit(right, left) == expected)
    }
}
