import IsobarCore

/// The order an answer's steps and days must come in: each after the one before. Out of order, which values belong to
/// which hour of the other providers is a guess, so the answer is refused (as a plug-in's report is), naming the first
/// out of place.
enum TimeOrder {
    /// Throws at the first of `keys` that is not after the one before it, `rule` saying what was expected.
    static func check<Key: Comparable>(_ keys: [Key], at path: JSONPath, rule: String, provider: String) throws(ProviderError) {
        for index in keys.indices.dropFirst() where keys[index] <= keys[index - 1] {
            let at = path.appending(index: index).description
            throw ProviderError(.badResponse(path: at), "\(provider) sent a response Isobar cannot read at \(at): \(rule)")
        }
    }
}
