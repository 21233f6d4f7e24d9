import IsobarCore
import IsobarEngine

/// Names of Isobar's keys on the server: `isobar:v1:{<provider>}:<kind>:…`, so that `cache clear --shared` finds them by
/// prefix, a later layout can live beside this one, and the keys of one provider share a Redis Cluster hash slot.
enum RedisKeys {
    /// The prefix of every key.
    static let prefix = "isobar:v1:"
    /// The pattern of every cached answer.
    static let cachePattern = prefix + "{*}:cache:*"

    /// The hash tag of a provider's storage key (braces inside it, which would end the tag, become `_`).
    static func tag(_ provider: String) -> String {
        "{" + String(provider.map { $0 == "{" || $0 == "}" ? "_" : $0 }) + "}"
    }

    /// A cached answer.
    static func cache(_ key: CacheKey) -> String { prefix + tag(key.provider) + ":cache:\(key.slot.rawValue):\(key.placeKey)" }

    /// One rate-limit window; `scope` stands for the API key the limit belongs to (a hash, never the key).
    static func window(_ provider: String, scope: String, _ window: RateLimit) -> String {
        prefix + tag(provider) + ":gcra:\(scope):\(Self.number(window.limit))/\(Self.number(window.perSeconds))"
    }

    /// The mark that the server counts a provider's windows (for the API key `scope` stands for): missing on a new server
    /// or one restarted empty, whose windows are then seeded from the local ledger first.
    static func seeded(_ provider: String, scope: String) -> String { prefix + tag(provider) + ":gcra:\(scope):seeded" }

    /// A provider's cooldown.
    static func cooldown(_ provider: String) -> String { prefix + tag(provider) + ":cooldown" }

    /// A provider's breaker.
    static func breaker(_ provider: String) -> String { prefix + tag(provider) + ":breaker" }

    /// A fetch lease: `provider|…` (single flight) or `breaker|provider` (half-open probe), tagged with its provider.
    static func lease(_ key: String) -> String {
        let parts = key.split(separator: "|", omittingEmptySubsequences: false)
        let provider = parts.first == "breaker" && parts.count > 1 ? parts[1] : parts[0]
        return prefix + tag(String(provider)) + ":lease:" + key
    }

    /// The provider and slot of a cached answer's key, or nil for another key.
    static func cacheParts(_ key: String) -> (provider: String, slot: String)? {
        guard key.hasPrefix(prefix + "{"), let close = key.firstIndex(of: "}") else { return nil }
        let provider = key[key.index(key.startIndex, offsetBy: prefix.count + 1)..<close]
        let rest = key[key.index(after: close)...]
        guard rest.hasPrefix(":cache:") else { return nil }
        return (String(provider), String(rest.dropFirst(7).prefix { $0 != ":" }))
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// A rate-limit window as a GCRA limiter that never lets more than the window's limit through in any span of its length.
///
/// GCRA alone lets a full burst through and then one call per interval, which can put close to twice the limit in one
/// window. So half of the limit (at least one call) is the burst, and the rest, less one call kept as slack for the time
/// between a permit and the request reaching the provider, is spread evenly: `limit 10 per 2 s` becomes a burst of 5 and
/// then one call every 0.5 s, at most 9 in any 2 s.
struct GCRAWindow: Equatable {
    /// Calls that may go at once.
    var burst: Double
    /// Milliseconds between calls after the burst.
    var intervalMilliseconds: Double

    init(_ window: RateLimit) {
        burst = max(1, (window.limit / 2).rounded(.down))
        intervalMilliseconds = window.perSeconds * 1000 / max(1, window.limit - burst - 1)
    }

    /// The longest a seeded window is put ahead, in milliseconds: a full window frees up within its length, so the next
    /// call is let through one window's length from now at the latest.
    func seedCapMilliseconds(_ window: RateLimit) -> Double { window.perSeconds * 1000 + max(0, burst - 1) * intervalMilliseconds }

    /// The most calls it lets through in any span of `seconds` (the burst, and one per interval).
    func most(inSeconds seconds: Double) -> Double { burst + (seconds * 1000 / intervalMilliseconds).rounded(.down) }
}
