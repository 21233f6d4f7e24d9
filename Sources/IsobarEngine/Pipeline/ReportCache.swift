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

    /// Seconds an entry of `slot` stays fresh.
    public func ttl(_ slot: CacheSlot) -> Double {
        maxAgeSeconds ?? (slot == .current ? policy.currentTTLSeconds : policy.forecastTTLSeconds)
    }

    /// Every wanted slot's entry, decoded; nil when one is missing or unreadable.
    public func parts(_ request: WeatherRequest) async -> [(slot: CacheSlot, report: WeatherReport)]? {
        let placeKey = Self.placeKey(request.place.coordinate)
        var parts: [(slot: CacheSlot, report: WeatherReport)] = []
        for slot in Self.slots(request.kinds) {
            let entry: CacheEntry?
            do {
                entry = try await cache.entry(for: CacheKey(provider: storageKey, slot: slot, placeKey: placeKey))
            } catch {
                diagnostics.report(Diagnostic(.cache, "cannot read a cached answer of \(provider.id): \(error.message)"))
                return nil
            }
            guard let entry, let report = ReportCodec.decode(entry.payload, place: request.place) else { return nil }
            parts.append((slot, report))
        }
        return parts
    }

    /// The oldest part's age in seconds.
    public func age(_ parts: [(slot: CacheSlot, report: WeatherReport)]) -> Double {
        let now = time.now()
        return parts.map { now.timeIntervalSince($0.report.fetchedAt) }.max() ?? 0
    }

    /// True when every part is within its time to live.
    public func isFresh(_ parts: [(slot: CacheSlot, report: WeatherReport)]) -> Bool {
        let now = time.now()
        return parts.allSatisfy { now.timeIntervalSince($0.report.fetchedAt) <= ttl($0.slot) }
    }

    /// The parts as one report, delivered with `freshness`.
    public func combine(_ parts: [(slot: CacheSlot, report: WeatherReport)], freshness: Freshness) -> WeatherReport {
        var report = parts[0].report
        report.fetchedAt = parts.map(\.report.fetchedAt).min() ?? report.fetchedAt
        for (slot, part) in parts {
            switch slot {
            case .current: report.current = part.current
            case .forecast:
                report.hourly = part.hourly
                report.daily = part.daily
            }
        }
        report.freshness = freshness
        return report
    }

    /// The cached answer when every part was fetched after `fetchedAfter`, or, when `withinTTL`, is within its time to live.
    public func usable(_ request: WeatherRequest, fetchedAfter: Date? = nil, withinTTL: Bool) async -> WeatherReport? {
        guard let parts = await parts(request) else { return nil }
        let now = time.now()
        let usable = parts.allSatisfy { slot, report in
            if let fetchedAfter, report.fetchedAt > fetchedAfter { return true }
            return withinTTL && now.timeIntervalSince(report.fetchedAt) <= ttl(slot)
        }
        return usable ? combine(parts, freshness: .cached(ageSeconds: age(parts))) : nil
    }

    /// Stores a fresh answer, one entry per slot it fills.
    public func store(_ report: WeatherReport) async {
        let placeKey = Self.placeKey(report.place.coordinate)
        var current = report
        current.hourly = []
        current.daily = []
        var forecast = report
        forecast.current = nil
        let parts: [(CacheSlot, WeatherReport)] = [
            report.current != nil ? (.current, current) : nil,
            report.hourly.isEmpty && report.daily.isEmpty ? nil : (.forecast, forecast),
        ].compactMap { $0 }
        for (slot, part) in parts {
            do {
                try await cache.store(CacheEntry(fetchedAt: report.fetchedAt, payload: ReportCodec.encode(part)),
                                      for: CacheKey(provider: storageKey, slot: slot, placeKey: placeKey))
            } catch {
                diagnostics.report(Diagnostic(.cache, "cannot store an answer of \(provider.id): \(error.message)"))
            }
        }
    }
}
