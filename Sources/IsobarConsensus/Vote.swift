import IsobarCore

/// Majority vote over conditions.
public enum Vote {
    /// The most frequent condition; a tie goes to the more severe one. Nil for no votes.
    public static func winner(_ votes: [Condition]) -> Condition? {
        var counts: [Condition: Int] = [:]
        for vote in votes { counts[vote, default: 0] += 1 }
        return counts.max { ($0.value, $0.key) < ($1.value, $1.key) }?.key
    }
}
