/// A value type's fields in one shared box, copied on write: copying the value copies one reference (cheap to pass along
/// a chain of async steps or keep in a result), and changing a value whose box another shares copies the box first.
@usableFromInline
struct CopyOnWrite<Fields: Sendable>: Sendable {
    /// The box; only ever changed through a value that holds the one reference to it (see `fields`).
    @usableFromInline
    final class Box: @unchecked Sendable {
        @usableFromInline var fields: Fields

        @usableFromInline
        init(_ fields: Fields) { self.fields = fields }
    }

    @usableFromInline var box: Box

    /// Boxes `fields`.
    @inlinable
    init(_ fields: Fields) { box = Box(fields) }

    /// The fields, read in place; a change copies the box first when it is shared.
    @inlinable
    var fields: Fields {
        _read { yield box.fields }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
            yield &box.fields
        }
    }

    /// True when both hold the same box (and so the same fields).
    @inlinable
    func sharesBox(with other: CopyOnWrite) -> Bool { box === other.box }
}
