import IsobarCore
import Testing

@Suite struct ByteSearchTests {
    @Test func findsNeedlesAnywhereAndOnlyWhole() {
        #expect("en_gb.utf-8".containsBytes("utf-8"))
        #expect("utf8".containsBytes("utf8"))
        #expect("c.utf8x".containsBytes("utf8"))
        #expect(!"en_gb.utf-".containsBytes("utf-8"))
        #expect(!"uutf".containsBytes("utf8"))
        #expect("Europe/../etc".containsBytes(".."))
        #expect(!"Europe/Minsk.x".containsBytes(".."))
    }

    @Test func emptyAndLongerNeedles() {
        #expect("".containsBytes(""))
        #expect("abc".containsBytes(""))
        #expect(!"".containsBytes("a"))
        #expect(!"ab".containsBytes("abc"))
    }

    @Test func agreesWithCharacterSearchOnASCII() {
        let texts = ["", "a", "aa", "aab", "abab", "ba", "C.UTF-8", "en_US.ISO-8859-1"]
        for text in texts {
            for needle in ["a", "ab", "ba", "aab", "UTF", "8859", "x"] {
                #expect(text.containsBytes(needle) == text.contains(needle), "\(text) / \(needle)")
            }
        }
    }
}
