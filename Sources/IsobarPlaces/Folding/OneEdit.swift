/// Whether two folded names differ by at most one edit: a substitution, an insertion, a deletion
/// or a transposition of two neighbouring scalars (optimal string alignment distance ≤ 1).
func isWithinOneEdit(_ a: [UInt32], _ b: [UInt32]) -> Bool {
    let difference = a.count - b.count
    guard abs(difference) <= 1 else { return false }
    var prefix = 0
    let shorter = min(a.count, b.count)
    while prefix < shorter, a[prefix] == b[prefix] { prefix += 1 }
    if prefix == shorter { return true }  // equal, or one extra scalar at the end
    var suffix = 0
    while suffix < shorter - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
    let middleA = a.count - prefix - suffix
    let middleB = b.count - prefix - suffix
    if middleA <= 1, middleB <= 1 { return true }  // one substitution, insertion or deletion
    return middleA == 2 && middleB == 2 && a[prefix] == b[prefix + 1] && a[prefix + 1] == b[prefix]
}
