import FoundationEssentials
import IsobarCore
import IsobarStore
#if canImport(Glibc)
import Glibc
#endif

/// One provider's turn in a command: cache, breaker, cooldown, cross-process single flight, rate permit, retries, stale-if-error.
///
/// The store is an aid, never a requirement: when it cannot be read or written (`try?` below), the provider is still asked.
struct ProviderPipeline {
    let binding: ProviderBinding
    let policy: ProviderPolicy
    let store: Store
    let options: EngineOptions
    let time: any TimeSource
    let deadline: Date
    let random: @Sendable (ClosedRange<Double>) -> Double

    private var provider: any WeatherProvider { binding.provider }
    private var name: String { provider.displayName }

    /// Cache entries are kept per kind: current conditions, and forecast steps with days.
    enum CacheKind: String, CaseIterable {
        case current, forecast
    }

    func run(_ request: WeatherRequest) async throws(ProviderError) -> WeatherReport {
        let kinds = Self.cacheKinds(request.kinds)
        let placeKey = Self.placeKey(request.place.coordinate)
        let started = time.now()
        if options.offline { return try offlineAnswer(request, kinds, placeKey) }
        if options.readCache, let cached = cachedAnswer(request, kinds, placeKey, withinTTL: true) { return cached }
        do {
            try checkBreaker()
            try await waitOutCooldown()
            return try await singleFlight(request, kinds, placeKey, started: started)
        } catch {
            if error.code == .cancelled { throw error }
            if let stale = staleAnswer(request, kinds, placeKey, because: error) { return stale }
            throw error
        }
    }

    // MARK: Cache

    static func cacheKinds(_ kinds: Set<DataKind>) -> [CacheKind] {
        var result: [CacheKind] = []
        if kinds.contains(.current) { result.append(.current) }
        if !kinds.isDisjoint(with: [.hourly, .daily]) { result.append(.forecast) }
        return result
    }

    /// Coordinates rounded to 0.01° (about 1 km): nearby requests share entries.
    static func placeKey(_ coordinate: Coordinate) -> String {
        let round = { (value: Double) in JSONOutput.format((value * 100).rounded() / 100) }
        return "\(round(coordinate.latitude)),\(round(coordinate.longitude))"
    }

    private func ttl(_ kind: CacheKind) -> Double {
        options.maxAgeSeconds ?? (kind == .current ? policy.currentTTLSeconds : policy.forecastTTLSeconds)
    }

    /// Every wanted kind's entry, or nil when one is missing or unreadable.
    private func entries(_ request: WeatherRequest, _ kinds: [CacheKind], _ placeKey: String) -> [(CacheKind, WeatherReport)]? {
        var parts: [(CacheKind, WeatherReport)] = []
        for kind in kinds {
            guard let entry = try? store.cached(provider: provider.id, kind: kind.rawValue, placeKey: placeKey),
                  let report = ReportCodec.decode(entry.payload, place: request.place) else { return nil }
            parts.append((kind, report))
        }
        return parts
    }

    private func combine(_ parts: [(CacheKind, WeatherReport)], freshness: Freshness) -> WeatherReport {
        var report = parts[0].1
        report.fetchedAt = parts.map(\.1.fetchedAt).min() ?? report.fetchedAt
        for (kind, part) in parts {
            switch kind {
            case .current: report.current = part.current
            case .forecast:
                report.hourly = part.hourly
                report.daily = part.daily
            }
        }
        report.freshness = freshness
        return report
    }

    private func age(_ parts: [(CacheKind, WeatherReport)]) -> Double {
        let now = time.now()
        return parts.map { now.timeIntervalSince($0.1.fetchedAt) }.max() ?? 0
    }

    /// The cached answer when every wanted kind was fetched after `fetchedAfter`, or, when `withinTTL`, is within its time to live.
    private func cachedAnswer(_ request: WeatherRequest, _ kinds: [CacheKind], _ placeKey: String,
                              fetchedAfter: Date? = nil, withinTTL: Bool) -> WeatherReport? {
        guard let parts = entries(request, kinds, placeKey) else { return nil }
        let now = time.now()
        let usable = parts.allSatisfy { kind, report in
            if let fetchedAfter, report.fetchedAt > fetchedAfter { return true }
            return withinTTL && now.timeIntervalSince(report.fetchedAt) <= ttl(kind)
        }
        return usable ? combine(parts, freshness: .cached(ageSeconds: age(parts))) : nil
    }

    private func offlineAnswer(_ request: WeatherRequest, _ kinds: [CacheKind], _ placeKey: String) throws(ProviderError) -> WeatherReport {
        guard let parts = entries(request, kinds, placeKey) else {
            throw ProviderError(.unavailable, "\(name): offline, and nothing is cached for this place", reason: "offline")
        }
        let now = time.now()
        let fresh = parts.allSatisfy { now.timeIntervalSince($0.1.fetchedAt) <= ttl($0.0) }
        return combine(parts, freshness: fresh ? .cached(ageSeconds: age(parts)) : .stale(ageSeconds: age(parts), because: "offline"))
    }

    /// The cached answer for `request` within `max_stale`, marked stale because of `error`; nil when there is none.
    func staleAnswer(_ request: WeatherRequest, because error: ProviderError) -> WeatherReport? {
        staleAnswer(request, Self.cacheKinds(request.kinds), Self.placeKey(request.place.coordinate), because: error)
    }

    private func staleAnswer(_ request: WeatherRequest, _ kinds: [CacheKind], _ placeKey: String, because error: ProviderError) -> WeatherReport? {
        switch error.code {
        case .notConfigured, .unauthorized, .unsupported, .badRequest, .notFound: return nil
        default: break
        }
        guard let parts = entries(request, kinds, placeKey), age(parts) <= policy.maxStaleSeconds else { return nil }
        return combine(parts, freshness: .stale(ageSeconds: age(parts), because: error.message))
    }

    private func store(_ report: WeatherReport, placeKey: String) {
        var current = report
        current.hourly = []
        current.daily = []
        var forecast = report
        forecast.current = nil
        let entries: [(CacheKind, WeatherReport)] = [
            report.current != nil ? (.current, current) : nil,
            report.hourly.isEmpty && report.daily.isEmpty ? nil : (.forecast, forecast),
        ].compactMap { $0 }
        for (kind, part) in entries {
            try? store.storeCached(provider: provider.id, kind: kind.rawValue, placeKey: placeKey,
                                   entry: CacheEntry(fetchedAt: report.fetchedAt, payload: ReportCodec.encode(part)))
        }
    }

    // MARK: Breaker and cooldown

    private func checkBreaker() throws(ProviderError) {
        guard let state = try? store.breaker(provider: provider.id), let openedAt = state.openedAt else { return }
        let reopens = openedAt.addingTimeInterval(options.breakerOpenSeconds)
        guard time.now() < reopens else { return }
        throw ProviderError(.unavailable, "\(name) failed \(state.failures) times in a row; skipped until \(Self.clock(reopens)) UTC",
                            reason: "breaker_open")
    }

    private func waitOutCooldown() async throws(ProviderError) {
        guard let cooldown = try? store.cooldown(provider: provider.id, now: time.now()) else { return }
        let wait = cooldown.until.timeIntervalSince(time.now())
        if wait > options.longestWaitSeconds {
            throw ProviderError(.unavailable, "\(name) asked to wait until \(Self.clock(cooldown.until)) UTC (\(cooldown.reason)); skipped",
                                reason: "cooldown")
        }
        guard cooldown.until < deadline else {
            throw ProviderError(.rateLimited(retryAfterSeconds: wait),
                                "\(name) is cooling down until \(Self.clock(cooldown.until)) UTC (\(cooldown.reason))", reason: "cooldown_wait")
        }
        try await sleep(wait)
    }

    // MARK: Single flight across processes

    private func singleFlight(_ request: WeatherRequest, _ kinds: [CacheKind], _ placeKey: String, started: Date) async throws(ProviderError) -> WeatherReport {
        let lockKey = "\(provider.id)|\(kinds.map(\.rawValue).joined(separator: "+"))|\(placeKey)"
        let pid = getpid()
        while true {
            let locked = (try? store.tryLock(lockKey, pid: pid, now: time.now(), staleAfter: options.lockStaleSeconds,
                                             isAlive: Self.isAlive)) ?? true
            if locked {
                defer { try? store.unlock(lockKey, pid: pid) }
                // Another process may have just answered.
                if let cached = cachedAnswer(request, kinds, placeKey, fetchedAfter: started, withinTTL: options.readCache) {
                    return cached
                }
                let report = try await fetchWithRetries(request)
                store(report, placeKey: placeKey)
                return report
            }
            try await sleep(0.05)
            if let cached = cachedAnswer(request, kinds, placeKey, fetchedAfter: started, withinTTL: options.readCache) { return cached }
        }
    }

    private static func isAlive(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno == EPERM }

    // MARK: Permits and retries

    private func fetchWithRetries(_ request: WeatherRequest) async throws(ProviderError) -> WeatherReport {
        var attempt = 0
        while true {
            let callID = try await acquirePermit(request)
            do throws(ProviderError) {
                let report = try await fetchOnce(request, settling: callID)
                _ = try? store.recordOutcome(provider: provider.id, succeeded: true, threshold: options.breakerThreshold, now: time.now())
                return report
            } catch {
                try noteFailure(error)
                let ceiling = options.retryBaseDelaySeconds * Double(1 << attempt)
                let delay = random(0...ceiling)
                guard Self.isRetryable(error), attempt < options.maxRetries, time.now().addingTimeInterval(delay) < deadline else {
                    throw error
                }
                attempt += 1
                try await sleep(delay)
            }
        }
    }

    /// One request to the provider; the rate-limit call is settled when the answer (or failure) comes back.
    private func fetchOnce(_ request: WeatherRequest, settling callID: Int64?) async throws(ProviderError) -> WeatherReport {
        do {
            var report = try await provider.fetch(request, transport: DeadlineTransport(base: binding.transport, deadline: deadline, time: time))
            if let callID { try? store.settle(callID: callID, at: time.now()) }
            // Ages are measured on the engine's clock.
            if report.source == .live { report.fetchedAt = time.now() }
            return report
        } catch {
            // A request given up on (timeout, cancel, broken connection) may still reach the provider a moment later:
            // it counts for a little longer.
            if let callID { try? store.settle(callID: callID, at: time.now().addingTimeInterval(Self.lateArrivalMargin)) }
            throw error
        }
    }

    /// Seconds a request given up on is assumed to be able to reach the provider after the client stopped waiting.
    static let lateArrivalMargin = 1.0

    /// Records the failure against the breaker, and turns a 429 into a cooldown every process respects.
    private func noteFailure(_ error: ProviderError) throws(ProviderError) {
        switch error.code {
        case .unavailable, .timeout, .badResponse:
            _ = try? store.recordOutcome(provider: provider.id, succeeded: false, threshold: options.breakerThreshold, now: time.now())
        case .rateLimited(let retryAfter):
            let wait = retryAfter ?? 60
            let until = time.now().addingTimeInterval(wait)
            try? store.setCooldown(provider: provider.id, until: until, reason: "HTTP 429")
            if wait > options.longestWaitSeconds {
                throw ProviderError(.unavailable, "\(name) asked to wait \(Self.duration(wait)) (Retry-After); skipped until \(Self.clock(until)) UTC",
                                    reason: "cooldown")
            }
        default:
            break
        }
    }

    static func isRetryable(_ error: ProviderError) -> Bool {
        switch error.code {
        case .unavailable, .timeout: true
        default: false
        }
    }

    /// Waits for room in every rate-limit window (checking again at least every quarter second, as calls elsewhere settle),
    /// or fails as rate limited when the room will not come before the deadline. Returns the call to settle, if any.
    private func acquirePermit(_ request: WeatherRequest) async throws(ProviderError) -> Int64? {
        guard !policy.rateLimits.isEmpty else { return nil }
        let cost = provider.callCost(of: request)
        while true {
            let decision: PermitDecision
            do {
                decision = try store.acquirePermit(provider: provider.id, windows: policy.rateLimits, cost: cost, now: time.now(), deadline: deadline)
            } catch {
                // A store that cannot be written must not stop the command; the provider's own limit still applies.
                return nil
            }
            switch decision {
            case .granted(let callID): return callID
            case .wait(let until):
                guard until < deadline else {
                    let wait = until.timeIntervalSince(time.now())
                    let when = until == .distantFuture ? "a window larger than the limit" : "\(Self.clock(until)) UTC"
                    throw ProviderError(.rateLimited(retryAfterSeconds: until == .distantFuture ? nil : wait),
                                        "\(name): rate limit reached; a call frees up at \(when)", reason: "local_limit")
                }
                try await sleep(min(until.timeIntervalSince(time.now()), 0.25))
            }
        }
    }

    private func sleep(_ seconds: Double) async throws(ProviderError) {
        do {
            try await time.sleep(seconds: max(0, seconds))
        } catch {
            throw ProviderError(.cancelled, "\(name): cancelled", reason: "cancelled")
        }
    }

    static func clock(_ date: Date) -> String {
        "\(LocalDate(date, utcOffsetSeconds: 0)) \(CivilTime.clock(date, utcOffsetSeconds: 0))"
    }

    static func duration(_ seconds: Double) -> String {
        seconds >= 86_400 ? "\(Int(seconds / 86_400)) d" : seconds >= 3600 ? "\(Int(seconds / 3600)) h" : "\(Int(seconds)) s"
    }
}

/// Marks every request with the command's deadline, refusing to start one when no time is left.
struct DeadlineTransport: Transport {
    let base: any Transport
    let deadline: Date
    let time: any TimeSource

    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        guard deadline.timeIntervalSince(time.now()) > 0 else {
            throw ProviderError(.timeout, "\(request.origin): no time left before the deadline", reason: "deadline")
        }
        var marked = request
        marked.notAfter = min(request.notAfter ?? deadline, deadline)
        return try await base.send(marked)
    }
}
