/// The bytes of a statement's text arguments, kept by its connection from binding until the statement is reset, so that
/// SQLite reads them in place (`SQLITE_STATIC`) instead of copying each into an allocation of its own.
///
/// One buffer per connection, grown to the longest arguments seen and reused: a connection runs one statement at a time.
final class BoundText {
    /// The buffer; nil until the first text argument.
    private var storage: UnsafeMutableRawPointer?
    /// Bytes `storage` holds.
    private var capacity = 0

    deinit { storage?.deallocate() }

    /// Bytes of the buffer used since `reserve`.
    private var used = 0

    /// Makes room for every text of `values` (growing the buffer only while none is bound) and starts at its beginning.
    func reserve(for values: [SQLValue]) {
        used = 0
        var needed = 0
        for case .text(let text) in values { needed += text.utf8.count + 1 }
        guard needed > capacity else { return }
        storage?.deallocate()
        capacity = max(needed, 2 * capacity, 256)
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
    }

    /// Copies `text`, NUL-terminated, after those copied since `reserve` (which made room for it); returns where it
    /// starts and its length in bytes, valid until the next `reserve`.
    func copy(_ text: String) -> (start: UnsafePointer<CChar>, length: Int32) {
        guard let storage else { preconditionFailure("BoundText.copy before reserve") }
        let start = storage + used
        let bytes = UnsafeMutableRawBufferPointer(start: start, count: capacity - used)
        let written = text.utf8.count
        bytes.copyBytes(from: text.utf8)
        bytes[written] = 0
        used += written + 1
        return (UnsafePointer(start.assumingMemoryBound(to: CChar.self)), Int32(written))
    }
}
