@testable import IsobarEngine
import Testing

/// Lease owner tokens: unique in a process, random across processes, cheap.
@Suite struct LeaseTokenTests {
    /// True when `text` is two words of 16 lowercase hex digits joined by `-`.
    static func isToken(_ text: Substring) -> Bool {
        let words = text.split(separator: "-", omittingEmptySubsequences: false)
        return words.count == 2 && words.allSatisfy { $0.count == 16 && $0.allSatisfy { "0123456789abcdef".contains($0) } }
    }

    @Test func tokensAreTwoHexWordsAndNeverRepeat() {
        let tokens = (0..<10_000).map { _ in LeaseOwner.random().token }
        #expect(Set(tokens).count == tokens.count)
        #expect(tokens.allSatisfy { Self.isToken($0[...]) })
    }

    @Test func aChildIsItsParentSlashAToken() {
        let parent = LeaseOwner(token: "step-é")
        let child = parent.child()
        #expect(child.token.hasPrefix("step-é/"))
        #expect(Self.isToken(child.token.dropFirst("step-é/".count)))
        #expect(parent.child() != child)
    }

    @Test func tokensOfAnotherPrefixDifferAndTheSameKeysRepeatThem() {
        let (first, again, other) = (LeaseTokens(prefix: 1, offset: 2), LeaseTokens(prefix: 1, offset: 2), LeaseTokens(prefix: 7, offset: 2))
        let made = (0..<3).map { _ in first.next() }
        #expect(made == (0..<3).map { _ in again.next() })
        #expect(made.first == "0000000000000001-" + String(LeaseTokens.mix(3), radix: 16).leftPadded(to: 16))
        let others = (0..<3).map { _ in other.next() }
        #expect(Set(made).isDisjoint(with: others))
        #expect(others.allSatisfy { $0.hasPrefix("0000000000000007-") })
    }

    @Test func theMixIsABijectionOnTheWordsTried() {
        let words: [UInt64] = [0, 1, 2, 3, .max, .max - 1, 1 << 63, 0xdead_beef]
        #expect(Set(words.map(LeaseTokens.mix)).count == words.count)
    }
}

extension String {
    /// The string with zeros before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
