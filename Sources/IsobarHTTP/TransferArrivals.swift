/// Which transfer ids the I/O thread has taken in, when they may arrive out of order (an id is drawn before its transfer
/// is queued, so two senders can queue theirs in the other order): a cancellation that comes first is kept exactly until
/// its transfer arrives, and one for a transfer already taken in (finished since) is dropped.
struct TransferArrivals {
    /// Every id below this has arrived.
    private var lowestMissing = 1
    /// Ids at or above `lowestMissing` that have arrived.
    private var arrivedAhead: Set<Int> = []

    /// Records that transfer `id` arrived.
    mutating func arrived(_ id: Int) {
        guard id >= lowestMissing else { return }
        arrivedAhead.insert(id)
        while arrivedAhead.remove(lowestMissing) != nil { lowestMissing += 1 }
    }

    /// True once transfer `id` has arrived.
    func hasArrived(_ id: Int) -> Bool { id < lowestMissing || arrivedAhead.contains(id) }
}
