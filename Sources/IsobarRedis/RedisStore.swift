import FoundationEssentials
import IsobarCore
import IsobarEngine

/// The storage protocols on a Redis server shared by many machines: answers, GCRA rate limits on the server's clock,
/// cooldowns, breakers and fetch leases, under `isobar:v1:` keys. Every failure is a `StorageError` naming the server
/// with its password masked; `SharedStorage` turns those into a fallback to the local store.
public final class RedisStore: ResponseCache, CallLedger, CooldownStore, BreakerStore, FetchLock, CacheMaintenance {
    /// The server.
    public let url: RedisURL
    private let connection: RedisConnection
    private let keyScopes: [String: String]
    private let retention: @Sendable (CacheKey) -> Double

    /// How long cooldowns and breakers are kept after their last change, in milliseconds (a day).
    static let healthRetentionMilliseconds = 86_400_000

    /// A store on `url`; each connect and command gives up after `timeoutMilliseconds`. `keyScopes` maps a provider's storage
    /// key to `scope(apiKey:)` of its API key, so that limits are counted per key; `retention` says how long an answer is kept.
    public init(url: RedisURL, timeoutMilliseconds: Int = 100, keyScopes: [String: String] = [:],
                retention: @escaping @Sendable (CacheKey) -> Double = { _ in 7 * 86_400 }) {
        self.url = url
        connection = RedisConnection(url: url, timeoutMilliseconds: timeoutMilliseconds)
        self.keyScopes = keyScopes
        self.retention = retention
    }

    /// What stands for an API key in key names: 16 hex digits of a SHA-1 of it, from which the key cannot be read back.
    public static func scope(apiKey: String) -> String { String(SHA1.hex("isobar-api-key:" + apiKey).prefix(16)) }

    /// The server's URL, password masked.
    public var location: String { url.masked }

    /// Checks that the server answers.
    public func ping() async throws(StorageError) {
        guard try await call(["PING"]) == .string("PONG") else { throw StorageError("\(url.masked): PING had an odd answer") }
    }

    // MARK: ResponseCache

    /// The answer under `key`, if the server still keeps it.
    public func entry(for key: CacheKey) async throws(StorageError) -> CacheEntry? {
        guard let text = try await call(["GET", RedisKeys.cache(key)]).text else { return nil }
        return CachedText.decode(text)
    }

    /// Keeps `entry` for the retention of its key.
    public func store(_ entry: CacheEntry, for key: CacheKey) async throws(StorageError) {
        let milliseconds = max(1000, Int((retention(key) * 1000).rounded(.up)))
        _ = try await call(["SET", RedisKeys.cache(key), CachedText.encode(entry), "PX", String(milliseconds)])
    }

    /// Deletes the answer under `key`.
    public func removeEntry(for key: CacheKey) async throws(StorageError) {
        _ = try await call(["DEL", RedisKeys.cache(key)])
    }

    // MARK: CallLedger

    /// One GCRA script per request: every window of it conforms and is committed, or none is. A server that has not counted
    /// a provider's windows yet starts them empty.
    public func acquire(_ requests: [PermitRequest], now: Date) async throws(StorageError) -> [PermitDecision] {
        try await acquire(requests, now: now, owed: []) { request throws(StorageError) in request.windows.map { _ in 0 } }
    }

    /// `acquire`, first charging each request's `owed` calls (granted by the local ledger while the server was away; none
    /// past the end of `owed`) to its windows. A server that has not counted a provider's windows yet (a new one, or one
    /// restarted empty) has them seeded first with `seed`: the calls the local ledger counts in each window of the request.
    public func acquire(_ requests: [PermitRequest], now: Date, owed: [Double],
                        seed: (PermitRequest) async throws(StorageError) -> [Double]) async throws(StorageError) -> [PermitDecision] {
        var decisions: [PermitDecision] = []
        for (index, request) in requests.enumerated() {
            guard !request.windows.isEmpty else {
                decisions.append(.granted(CallID("redis")))
                continue
            }
            let charge = index < owed.count ? owed[index] : 0
            var answer = try await permit(request, owed: charge, counts: nil)
            if answer == Self.needsSeeding { answer = try await permit(request, owed: charge, counts: try await seed(request)) }
            if answer.granted {
                decisions.append(.granted(CallID("redis")))
            } else {
                decisions.append(.wait(until: answer.wait < 0 ? .distantFuture : now.addingTimeInterval(Double(answer.wait) / 1000)))
            }
        }
        return decisions
    }

    /// The permit script's answer when the provider's windows must be seeded first.
    private static let needsSeeding = (granted: false, wait: Int64(-2))

    /// Runs the permit script for one request (see `Script.permit`); `counts` are the local ledger's, one per window, or nil.
    private func permit(_ request: PermitRequest, owed: Double, counts: [Double]?) async throws(StorageError) -> (granted: Bool, wait: Int64) {
        let scope = scope(request.provider)
        let keys = [RedisKeys.seeded(request.provider, scope: scope)] + request.windows.map { RedisKeys.window(request.provider, scope: scope, $0) }
        let head = [Self.number(request.cost), Self.number(owed), counts == nil ? "0" : "1"]
        let arguments = head + request.windows.enumerated().flatMap { index, window in
            let limiter = GCRAWindow(window)
            let count = counts.map { index < $0.count ? $0[index] : 0 } ?? 0
            return [Self.number(limiter.intervalMilliseconds), Self.number(limiter.burst), Self.number(window.limit), Self.number(count),
                    Self.number(limiter.seedCapMilliseconds(window))]
        }
        let reply = try await evaluate(.permit, keys: keys, arguments: arguments)
        guard case .array(let parts) = reply, parts.count == 2, case .integer(let granted) = parts[0], case .integer(let wait) = parts[1] else {
            throw StorageError("\(url.masked): the rate-limit script had an odd answer")
        }
        return (granted == 1, wait)
    }

    /// Nothing to do: GCRA counts a call when it is granted.
    public func settle(_ call: CallID, at: Date) async throws(StorageError) {}

    /// Calls' worth each window holds now (how far its theoretical arrival time is ahead, in calls).
    public func usage(provider: String, windows: [RateLimit], now: Date) async throws(StorageError) -> [Double] {
        guard !windows.isEmpty else { return [] }
        let keys = windows.map { RedisKeys.window(provider, scope: scope(provider), $0) }
        let reply = try await evaluate(.usage, keys: keys, arguments: windows.map { Self.number(GCRAWindow($0).intervalMilliseconds) })
        guard case .array(let parts) = reply, parts.count == windows.count else {
            throw StorageError("\(url.masked): the usage script had an odd answer")
        }
        return parts.map { $0.text.flatMap(Double.init) ?? 0 }
    }

    // MARK: CooldownStore

    /// The provider's cooldown, if one lasts beyond `now`.
    public func cooldown(provider: String, now: Date) async throws(StorageError) -> Cooldown? {
        let reply = try await call(["HMGET", RedisKeys.cooldown(provider), "until", "reason"])
        guard case .array(let parts) = reply, parts.count == 2, let until = parts[0].text.flatMap(Double.init) else { return nil }
        let instant = Date(timeIntervalSince1970: until)
        return instant > now ? Cooldown(until: instant, reason: parts[1].text ?? "") : nil
    }

    /// Sets or extends the provider's cooldown.
    public func setCooldown(_ cooldown: Cooldown, provider: String) async throws(StorageError) {
        let ahead = max(0, cooldown.until.timeIntervalSinceNow) * 1000
        let keep = Self.healthRetentionMilliseconds + Int(ahead.rounded(.up))
        _ = try await evaluate(.cooldown, keys: [RedisKeys.cooldown(provider)],
                               arguments: [Self.number(cooldown.until.timeIntervalSince1970), cooldown.reason, String(keep)])
    }

    /// Removes the provider's cooldown.
    public func clearCooldown(provider: String) async throws(StorageError) {
        _ = try await call(["DEL", RedisKeys.cooldown(provider)])
    }

    // MARK: BreakerStore

    /// The provider's breaker.
    public func breaker(provider: String) async throws(StorageError) -> BreakerState {
        let reply = try await call(["HMGET", RedisKeys.breaker(provider), "failures", "opened_at", "last_failure"])
        guard case .array(let parts) = reply, parts.count == 3 else { throw StorageError("\(url.masked): HMGET had an odd answer") }
        return Self.breakerState(failures: parts[0].text, openedAt: parts[1].text, lastFailure: parts[2].text)
    }

    /// Records an outcome in one script; the breaker opens at `threshold` consecutive failures on any machine.
    public func recordOutcome(provider: String, succeeded: Bool, threshold: Int, now: Date, failure: String?) async throws(StorageError) -> BreakerState {
        let reply = try await evaluate(.breaker, keys: [RedisKeys.breaker(provider)], arguments: [
            succeeded ? "1" : "0", String(threshold), Self.number(now.timeIntervalSince1970), String(Self.healthRetentionMilliseconds),
            BreakerState.keptFailure(failure) ?? "",
        ])
        guard case .array(let parts) = reply, parts.count == 3 else { throw StorageError("\(url.masked): the breaker script had an odd answer") }
        return Self.breakerState(failures: parts[0].text, openedAt: parts[1].text, lastFailure: parts[2].text)
    }

    /// Closes the provider's breaker.
    public func resetBreaker(provider: String) async throws(StorageError) {
        _ = try await call(["DEL", RedisKeys.breaker(provider)])
    }

    // MARK: FetchLock

    /// `SET key token NX PX`; when taken already, renews it if `owner` is the holder.
    public func acquire(_ key: String, owner: LeaseOwner, seconds: Double, now: Date) async throws(StorageError) -> Bool {
        let name = RedisKeys.lease(key)
        if try await call(["SET", name, owner.token, "NX", "PX", Self.milliseconds(seconds)]) == .string("OK") { return true }
        return try await renew(key, owner: owner, seconds: seconds, now: now)
    }

    /// Extends `owner`'s lease by compare-and-expire.
    public func renew(_ key: String, owner: LeaseOwner, seconds: Double, now: Date) async throws(StorageError) -> Bool {
        try await evaluate(.renew, keys: [RedisKeys.lease(key)], arguments: [owner.token, Self.milliseconds(seconds)]) == .integer(1)
    }

    /// Ends `owner`'s lease by compare-and-delete.
    public func release(_ key: String, owner: LeaseOwner) async throws(StorageError) {
        _ = try await evaluate(.release, keys: [RedisKeys.lease(key)], arguments: [owner.token])
    }

    // MARK: CacheMaintenance

    /// Counts the shared answers per provider and slot (a `SCAN` over the answers' keys).
    public func statistics() async throws(StorageError) -> CacheStatistics {
        var groups: [String: CacheGroup] = [:]
        var bytes = 0
        for key in try await keys(matching: RedisKeys.cachePattern) {
            guard let parts = RedisKeys.cacheParts(key), let text = try await call(["GET", key]).text,
                  let entry = CachedText.decode(text) else { continue }
            bytes += entry.payload.utf8.count
            let name = parts.provider + "|" + parts.slot
            var group = groups[name] ?? CacheGroup(provider: parts.provider, slot: parts.slot, count: 0, oldest: .distantFuture, newest: .distantPast)
            group.count += 1
            group.oldest = min(group.oldest, entry.fetchedAt)
            group.newest = max(group.newest, entry.fetchedAt)
            groups[name] = group
        }
        return CacheStatistics(groups: groups.values.sorted { ($0.provider, $0.slot) < ($1.provider, $1.slot) }, payloadBytes: bytes)
    }

    /// Deletes every shared answer (found by `SCAN`, never `FLUSHDB`); returns how many.
    public func clear() async throws(StorageError) -> Int {
        let found = try await keys(matching: RedisKeys.cachePattern)
        var deleted = 0
        for start in stride(from: 0, to: found.count, by: 500) {
            if case .integer(let count) = try await call(["DEL"] + found[start..<min(start + 500, found.count)]) { deleted += Int(count) }
        }
        return deleted
    }

    /// Nothing to do: the server expires answers and limits itself.
    public func prune(fetchedBefore cutoff: Date, ledgerBefore ledgerCutoff: Date) async throws(StorageError) -> Int { 0 }

    // MARK: Plumbing

    private func keys(matching pattern: String) async throws(StorageError) -> [String] {
        var cursor = "0"
        var found: [String] = []
        repeat {
            let reply = try await call(["SCAN", cursor, "MATCH", pattern, "COUNT", "1000"])
            guard case .array(let parts) = reply, parts.count == 2, let next = parts[0].text, case .array(let names) = parts[1] else {
                throw StorageError("\(url.masked): SCAN had an odd answer")
            }
            found += names.compactMap(\.text)
            cursor = next
        } while cursor != "0"
        return found
    }

    private func scope(_ provider: String) -> String { keyScopes[provider] ?? "any" }

    /// Runs a script by its SHA-1, sending its source only when the server does not have it yet (`NOSCRIPT`).
    private func evaluate(_ script: Script, keys: [String], arguments: [String]) async throws(StorageError) -> RedisReply {
        let tail = [String(keys.count)] + keys + arguments
        let reply = try await call(["EVALSHA", script.sha] + tail, allowing: "NOSCRIPT")
        if case .error = reply { return try await call(["EVAL", script.source] + tail) }
        return reply
    }

    /// Sends a command; an error answer is thrown unless it starts with `allowing`.
    private func call(_ arguments: [String], allowing allowed: String? = nil) async throws(StorageError) -> RedisReply {
        let reply: RedisReply
        do {
            reply = try await connection.command(arguments)
        } catch {
            throw StorageError(error.message)
        }
        if case .error(let message) = reply, allowed.map({ !message.hasPrefix($0) }) ?? true {
            throw StorageError("\(url.masked): \(arguments[0]) failed: \(message)")
        }
        return reply
    }

    private static func breakerState(failures: String?, openedAt: String?, lastFailure: String?) -> BreakerState {
        BreakerState(failures: failures.flatMap { Int($0) } ?? 0,
                     openedAt: openedAt.flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0) },
                     lastFailure: lastFailure.flatMap { $0.isEmpty ? nil : $0 })
    }

    private static func milliseconds(_ seconds: Double) -> String { String(max(1, Int((seconds * 1000).rounded(.up)))) }

    private static func number(_ value: Double) -> String { String(value) }
}

/// A cached answer as one string value: a version line, the fetch time, the lifetime (empty for the configured one),
/// `1` for must-revalidate, then the payload.
enum CachedText {
    /// The text of `entry`.
    static func encode(_ entry: CacheEntry) -> String {
        let lifetime = entry.lifetimeSeconds.map { String($0) } ?? ""
        return "1\n\(entry.fetchedAt.timeIntervalSince1970)\n\(lifetime)\n\(entry.mustRevalidate ? 1 : 0)\n\(entry.payload)"
    }

    /// The entry in `text`, or nil when it is of another version or damaged.
    static func decode(_ text: String) -> CacheEntry? {
        let lines = text.split(separator: "\n", maxSplits: 4, omittingEmptySubsequences: false)
        guard lines.count == 5, lines[0] == "1", let fetched = Double(lines[1]), lines[3] == "0" || lines[3] == "1" else { return nil }
        let lifetime: Double?
        if lines[2].isEmpty { lifetime = nil } else if let seconds = Double(lines[2]) { lifetime = seconds } else { return nil }
        return CacheEntry(fetchedAt: Date(timeIntervalSince1970: fetched), payload: String(lines[4]), lifetimeSeconds: lifetime,
                          mustRevalidate: lines[3] == "1")
    }
}
