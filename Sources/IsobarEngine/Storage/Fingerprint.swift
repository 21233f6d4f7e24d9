/// A short, stable fingerprint of a text (FNV-1a, 64 bits, as 16 hex digits): the same in every process and on every machine,
/// unlike Swift's `Hasher`, which is seeded per process.
public enum Fingerprint {
    /// The fingerprint of `text`'s UTF-8 bytes.
    public static func hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
