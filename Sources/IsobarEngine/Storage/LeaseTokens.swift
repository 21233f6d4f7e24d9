import Synchronization

/// Lease owner tokens, unique within the process and random across processes: one random key drawn when the first token
/// is made, and a counter mixed by a bijection, so a token costs one string and no system call.
final class LeaseTokens: Sendable {
    /// The process's tokens.
    static let shared = LeaseTokens()

    /// The first word of every token of this process.
    private let prefix: UInt64
    /// Added to the counter before mixing, so the second words differ between processes too.
    private let offset: UInt64
    /// Tokens made so far.
    private let made = Atomic<UInt64>(0)

    /// Tokens keyed by `prefix` and `offset` (tests give them); random ones otherwise, as for the process (see `shared`).
    init(prefix: UInt64? = nil, offset: UInt64? = nil) {
        var generator = SystemRandomNumberGenerator()
        self.prefix = prefix ?? generator.next()
        self.offset = offset ?? generator.next()
    }

    /// A new token, `<16 hex digits>-<16 hex digits>`, after `parent` and a `/` when one is given.
    func next(after parent: String? = nil) -> String {
        let count = made.add(1, ordering: .relaxed).newValue
        let words = (prefix, Self.mix(offset &+ count))
        let head = parent.map { $0.utf8.count + 1 } ?? 0
        return String(unsafeUninitializedCapacity: head + 33) { buffer in
            var index = 0
            if let parent {
                for byte in parent.utf8 {
                    buffer[index] = byte
                    index += 1
                }
                buffer[index] = UInt8(ascii: "/")
                index += 1
            }
            Self.writeHex(words.0, into: buffer, at: index)
            buffer[index + 16] = UInt8(ascii: "-")
            Self.writeHex(words.1, into: buffer, at: index + 17)
            return index + 33
        }
    }

    /// SplitMix64's finaliser: a bijection of 64-bit words, so distinct counts give distinct words.
    static func mix(_ value: UInt64) -> UInt64 {
        var word = value
        word = (word ^ (word >> 30)) &* 0xbf58_476d_1ce4_e5b9
        word = (word ^ (word >> 27)) &* 0x94d0_49bb_1331_11eb
        return word ^ (word >> 31)
    }

    /// Writes `word` as 16 lowercase hex digits at `start`.
    private static func writeHex(_ word: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        let digits: StaticString = "0123456789abcdef"
        for position in 0..<16 {
            let nibble = Int((word >> UInt64(60 - 4 * position)) & 0xf)
            buffer[start + position] = digits.utf8Start[nibble]
        }
    }
}
