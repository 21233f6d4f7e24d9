import FoundationEssentials

/// What a provider's HTTP answers say about caching them (`Cache-Control`, `Expires`, `Age`, `Date`), combined over one fetch.
///
/// A private cache's reading of RFC 9111: `max-age` (less `Age`) gives the lifetime, else `Expires` less `Date`; `s-maxage`,
/// `public` and `private` are for shared caches and ignored; `no-cache` and `max-age=0` make the answer stale at once.
public struct HTTPCaching: Sendable, Equatable {
    /// Seconds the answer stays fresh from when it arrived, when the provider says; the shortest of the fetch's answers.
    public var lifetimeSeconds: Double?
    /// True when an answer said `no-store`: it must not be kept at all.
    public var noStore: Bool
    /// True when an answer said `must-revalidate` or `no-cache`: once past its lifetime it must never be served.
    public var mustRevalidate: Bool
    /// True when every answer of the fetch was a `304 Not Modified` confirming a kept body.
    public var revalidated: Bool

    /// Creates a reading.
    public init(lifetimeSeconds: Double? = nil, noStore: Bool = false, mustRevalidate: Bool = false, revalidated: Bool = false) {
        self.lifetimeSeconds = lifetimeSeconds
        self.noStore = noStore
        self.mustRevalidate = mustRevalidate
        self.revalidated = revalidated
    }

    /// The reading of one response's headers, received at `receivedAt`.
    public init(_ response: HTTPResponse, receivedAt: Date) {
        let directives = Self.directives(response.headers.filter { $0.name.lowercased() == "cache-control" }.map(\.value))
        noStore = directives["no-store"] != nil
        let noCache = directives["no-cache"] != nil
        mustRevalidate = noCache || directives["must-revalidate"] != nil || directives["proxy-revalidate"] != nil
        revalidated = response.status == 304
        let age = response.header("Age").flatMap { Double($0.trimmingSpaces()) }.map { max(0, $0) } ?? 0
        if noCache {
            lifetimeSeconds = 0
        } else if let maxAge = directives["max-age"] {
            // A malformed max-age makes the answer stale (RFC 9111 §4.2.1).
            lifetimeSeconds = max(0, (maxAge.flatMap { Double($0) } ?? 0) - age)
        } else if let expires = response.header("Expires") {
            let date = response.header("Date").flatMap { RetryAfter.httpDate($0.trimmingSpaces()) } ?? receivedAt
            // An Expires that is not a date means "already expired" (RFC 9111 §5.3).
            let lifetime = RetryAfter.httpDate(expires.trimmingSpaces()).map { $0.timeIntervalSince(date) } ?? 0
            lifetimeSeconds = max(0, lifetime - age)
        } else {
            lifetimeSeconds = nil
        }
    }

    /// The stricter of two readings: the shorter lifetime, and any `no-store` or `must-revalidate`; revalidated only when both were.
    public func combined(with other: HTTPCaching) -> HTTPCaching {
        let lifetimes = [lifetimeSeconds, other.lifetimeSeconds].compactMap { $0 }
        return HTTPCaching(lifetimeSeconds: lifetimes.min(), noStore: noStore || other.noStore,
                           mustRevalidate: mustRevalidate || other.mustRevalidate, revalidated: revalidated && other.revalidated)
    }

    /// `Cache-Control` directives by lowercased name, with their value (quotes removed) when they have one.
    static func directives(_ fields: [String]) -> [String: String?] {
        var found: [String: String?] = [:]
        for field in fields {
            for part in field.split(separator: ",") {
                let pieces = part.split(separator: "=", maxSplits: 1)
                guard let rawName = pieces.first else { continue }
                let name = String(rawName).trimmingSpaces().lowercased()
                guard !name.isEmpty else { continue }
                let value = pieces.count > 1 ? String(pieces[1]).trimmingSpaces().trimming("\"") : nil
                // The first occurrence counts; a duplicated directive with another value is treated as the stricter reading below.
                if let existing = found[name], existing != value, name == "max-age" {
                    let numbers = [existing, value].compactMap { $0.flatMap(Double.init) }
                    found[name] = .some(numbers.count == 2 ? JSONOutput.format(numbers.min() ?? 0) : "0")
                } else if found[name] == nil {
                    found[name] = .some(value)
                }
            }
        }
        return found
    }
}
