import FoundationEssentials
import IsobarCore

/// One provider's answers in the response cache: split into slots on the way in, put back together on the way out.
public struct ReportCache: Sendable {
    /// The provider whose answers these are.
    public let provider: any WeatherProvider
    /// The backend.
    public let cache: any ResponseCache
    /// Lifetimes.
    public let policy: ProviderPolicy
    /// Seconds an entry stays usable whatever the policy says (`--max-age`).
    public let maxAgeSeconds: Double?
    /// The clock ages are measured on.
    public let time: any TimeSource
    /// Where cache failures go.
    public let diagnostics: any DiagnosticSink
    /// The key its answers are stored under: its id and endpoint (see `ProviderBinding.storageKey`).
    public let storageKey: String

    /// A view of `cache` for `provider`.
    public init(provider: any WeatherProvider, cache: any ResponseCache, policy: ProviderPolicy, maxAgeSeconds: Double?,
                time: any TimeSource, diagnostics: any DiagnosticSink, storageKey: String? = nil) {
        self.provider = provider
        self.cache = cache
        self.policy = policy
        self.maxAgeSeconds = maxAgeSeconds
        self.time = time
        self.diagnostics = diagnostics
        self.storageKey = storageKey ?? provider.id
    }

    /// The slots a request needs.
    public static func slots(_ kinds: Set<DataKind>) -> [CacheSlot] {
        var slots: [CacheSlot] = []
        if kinds.contains(.current) { slots.append(.current) }
        if !kinds.isDisjoint(with: [.hourly, .daily]) { slots.append(.forecast) }
        return slots
    }

    /// Coordinates rounded to 0.01° (about 1 km): nearby requests share entries.
    public static func placeKey(_ coordinate: Coordinate) -> String {
        let round = { (value: Double) in JSONOutput.format((value * 100).rounded() / 100) }
        return "\(round(coordinate.latitude)),\(round(coordinate.longitude))"
    }

    /// The lease key for fetching `request`: one per provider, slots and place.
    public func leaseKey(_ request: WeatherRequest) -> String {
        "\(storageKey)|\(Self.slots(request.kinds).map(\.rawValue).joined(separator: "+"))|\(Self.placeKey(request.place.coordinate))"
    }

    /// The rule that says how long this provider's answers stay fresh.
    public var freshness: FreshnessRule {
        FreshnessRule(policy: policy, honoursHTTPExpiry: provider.capabilities.honoursHTTPExpiry, maxAgeSeconds: maxAgeSeconds)
    }

    /// Seconds `part` stays fresh (see `FreshnessRule.lifetime`).
    public func lifetime(_ part: CachedPart) -> Double {
        freshness.lifetime(part.slot, httpLifetimeSeconds: part.lifetimeSeconds, mustRevalidate: part.mustRevalidate)
    }

    /// The keys of every slot `request` needs, in the order `parts` reads them.
    public func keys(_ request: WeatherRequest) -> [CacheKey] {
        let placeKey = Self.placeKey(request.place.coordinate)
        return Self.slots(request.kinds).map { CacheKey(provider: storageKey, slot: $0, placeKey: placeKey) }
    }

    /// Every wanted slot's entry, decoded; nil when one is missing or unreadable.
    public func parts(_ request: WeatherRequest) async -> [CachedPart]? {
        var entries: [CacheEntry?] = []
        for key in keys(request) {
            do {
                let entry = try await cache.entry(for: key)
                guard entry != nil else { return nil }
                entries.append(entry)
            } catch {
                diagnostics.report(Diagnostic(.cache, "cannot read a cached answer of \(provider.id): \(error.message)"))
                return nil
            }
        }
        return parts(request, entries: entries)
    }

    /// The entries already read under `keys(request)`, decoded; nil when one is missing or unreadable.
    public func parts(_ request: WeatherRequest, entries: [CacheEntry?]) -> [CachedPart]? {
        let slots = Self.slots(request.kinds)
        guard entries.count == slots.count else { return nil }
        var parts: [CachedPart] = []
        for (slot, entry) in zip(slots, entries) {
            guard let entry, let report = ReportCodec.decode(entry.payload, place: request.place) else { return nil }
            parts.append(CachedPart(slot: slot, report: report, lifetimeSeconds: entry.lifetimeSeconds, mustRevalidate: entry.mustRevalidate))
        }
        return parts
    }

    /// The oldest part's age in seconds.
    public func age(_ parts: [CachedPart]) -> Double {
        let now = time.now()
        return parts.map { now.timeIntervalSince($0.report.fetchedAt) }.max() ?? 0
    }

    /// True when `part` is within its lifetime.
    public func isFresh(_ part: CachedPart) -> Bool {
        freshness.isFresh(fetchedAt: part.report.fetchedAt, now: time.now(), slot: part.slot, httpLifetimeSeconds: part.lifetimeSeconds,
                          mustRevalidate: part.mustRevalidate)
    }

    /// True when every part is within its lifetime.
    public func isFresh(_ parts: [CachedPart]) -> Bool {
        parts.allSatisfy(isFresh)
    }

    /// The parts as one report, delivered with `freshness`.
    public func combine(_ parts: [CachedPart], freshness: Freshness) -> WeatherReport {
        var report = parts[0].report
        report.fetchedAt = parts.map(\.report.fetchedAt).min() ?? report.fetchedAt
        for part in parts {
            switch part.slot {
            case .current: report.current = part.report.current
            case .forecast:
                report.hourly = part.report.hourly
                report.daily = part.report.daily
            case .alerts:
                report.alerts = part.report.alerts
            case .past:
                break
            }
        }
        report.freshness = freshness
        return report
    }

    /// The cached answer when every part was fetched after `fetchedAfter`, or, when `withinTTL`, is within its lifetime.
    public func usable(_ request: WeatherRequest, fetchedAfter: Date? = nil, withinTTL: Bool) async -> WeatherReport? {
        usable(await parts(request), fetchedAfter: fetchedAfter, withinTTL: withinTTL)
    }

    /// The cached answer within its lifetime when every part can be read at once (see `ResponseCache.entryAtOnce`); nil
    /// when one is missing, unreadable or past its lifetime, or could only be read by waiting.
    public func freshAtOnce(_ request: WeatherRequest) -> WeatherReport? {
        var entries: [CacheEntry?] = []
        for key in keys(request) {
            guard case .answered(let entry?) = cache.entryAtOnce(for: key) else { return nil }
            entries.append(entry)
        }
        return usable(request, entries: entries, withinTTL: true)
    }

    /// `usable` over entries already read under `keys(request)`.
    public func usable(_ request: WeatherRequest, entries: [CacheEntry?], fetchedAfter: Date? = nil, withinTTL: Bool) -> WeatherReport? {
        usable(parts(request, entries: entries), fetchedAfter: fetchedAfter, withinTTL: withinTTL)
    }

    private func usable(_ parts: [CachedPart]?, fetchedAfter: Date?, withinTTL: Bool) -> WeatherReport? {
        guard let parts else { return nil }
        let usable = parts.allSatisfy { part in
            if let fetchedAfter, part.report.fetchedAt > fetchedAfter { return true }
            return withinTTL && isFresh(part)
        }
        return usable ? combine(parts, freshness: .cached(ageSeconds: age(parts))) : nil
    }

    /// Stores a fresh answer, one entry per slot it fills (only those of `slots`, when given), with the lifetime and flags its
    /// HTTP headers gave; `no-store` keeps nothing, in any slot it fills. `soon` queues the entries when the cache queues
    /// writes (see `QueuedWriting`) instead of waiting for them.
    public func store(_ report: WeatherReport, slots: [CacheSlot]? = nil, soon: Bool = false) async {
        let placeKey = Self.placeKey(report.place.coordinate)
        let filled: [CacheSlot] = [
            report.current != nil ? .current : nil,
            report.hourly.isEmpty && report.daily.isEmpty ? nil : .forecast,
        ].compactMap { $0 }
        let caching = report.caching ?? HTTPCaching()
        for slot in filled where caching.noStore || slots?.contains(slot) ?? true {
            let key = CacheKey(provider: storageKey, slot: slot, placeKey: placeKey)
            do {
                if caching.noStore {
                    // `no-store`: the answer is delivered but not kept, and an older one must not outlive it either.
                    try await cache.removeEntry(for: key)
                } else {
                    let entry = CacheEntry(fetchedAt: report.fetchedAt, payload: ReportCodec.encode(Self.part(slot, of: report)),
                                           lifetimeSeconds: caching.lifetimeSeconds, mustRevalidate: caching.mustRevalidate)
                    guard soon else {
                        try await cache.store(entry, for: key)
                        continue
                    }
                    let (diagnostics, id) = (diagnostics, provider.id)
                    await cache.storeSoon(entry, for: key) { error in
                        diagnostics.report(Diagnostic(.cache, "cannot store an answer of \(id): \(error.message)"))
                    }
                }
            } catch {
                diagnostics.report(Diagnostic(.cache, "cannot store an answer of \(provider.id): \(error.message)"))
            }
        }
    }

    /// The part of `report` that `slot` keeps: its current conditions, or its steps and days.
    private static func part(_ slot: CacheSlot, of report: WeatherReport) -> WeatherReport {
        var part = report
        switch slot {
        case .current:
            part.hourly = []
            part.daily = []
        case .forecast:
            part.current = nil
        case .alerts, .past:
            part.current = nil
            part.hourly = []
            part.daily = []
        }
        return part
    }
}

/// One slot's cached answer with what its HTTP headers said about its lifetime.
public struct CachedPart: Sendable {
    /// The part of the answer.
    public var slot: CacheSlot
    /// The decoded report holding it.
    public var report: WeatherReport
    /// Seconds it stays fresh by the provider's HTTP headers, when they said.
    public var lifetimeSeconds: Double?
    /// True when past its lifetime it must never be served stale.
    public var mustRevalidate: Bool

    /// Creates a part.
    public init(slot: CacheSlot, report: WeatherReport, lifetimeSeconds: Double? = nil, mustRevalidate: Bool = false) {
        self.slot = slot
        self.report = report
        self.lifetimeSeconds = lifetimeSeconds
        self.mustRevalidate = mustRevalidate
    }
}
