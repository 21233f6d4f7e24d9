extension String {
    /// True when the UTF-8 bytes of `needle` occur in this text's. Unlike `contains(_:)` (from `_StringProcessing`), whose
    /// first call sets up the regex machinery at a cost seen in every short command, it compares bytes, not characters: use
    /// it for ASCII needles, where the two agree.
    public func containsBytes(_ needle: String) -> Bool {
        var text = self
        var wanted = needle
        return text.withUTF8 { haystack in
            wanted.withUTF8 { bytes in
                guard !bytes.isEmpty else { return true }
                guard bytes.count <= haystack.count else { return false }
                for start in 0...(haystack.count - bytes.count) where haystack[start] == bytes[0] {
                    var offset = 1
                    while offset < bytes.count, haystack[start + offset] == bytes[offset] { offset += 1 }
                    if offset == bytes.count { return true }
                }
                return false
            }
        }
    }
}
