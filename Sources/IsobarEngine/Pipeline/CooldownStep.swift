import FoundationEssentials
import IsobarCore

/// Respects a provider's Retry-After across processes: waits out a short cooldown, skips during a long one,
/// and turns a 429 from the provider (or a 5xx that says Retry-After) into a cooldown every process sees.
public struct CooldownStep: PipelineStep {
    /// The step guarded.
    public let next: any PipelineStep
    /// The provider.
    public let provider: any WeatherProvider
    /// The shared cooldowns.
    public let cooldowns: any CooldownStore
    /// A cooldown longer than this skips the provider instead of waiting.
    public let longestWaitSeconds: Double
    /// The longest pause stored for one Retry-After; a longer request is capped to this.
    public let maxCooldownSeconds: Double
    /// The clock.
    public let time: any TimeSource
    /// The key its state is stored under: its id and endpoint (see `ProviderBinding.storageKey`).
    public let storageKey: String
    /// Where store failures go.
    public let diagnostics: any DiagnosticSink
    /// True to wait out a 429's pause and ask again (batch), while the deadline allows, instead of failing as `rate_limited`.
    public let waitsForRateLimits: Bool
    /// Where a 429's pause is told to the calls already queued for the provider; nil for nowhere.
    public let pause: ProviderPause?
    /// When the cooldowns and the breakers are one backend that reads both at once: it, so that the breaker step below
    /// is handed the breaker read with the cooldown; nil to read the cooldown alone.
    public let health: (any ProviderHealthStore)?

    /// Seconds of cooldown when a 429 names none.
    public static let defaultRetryAfterSeconds = 60.0

    /// Wraps `next`.
    public init(next: any PipelineStep, provider: any WeatherProvider, cooldowns: any CooldownStore, longestWaitSeconds: Double,
                maxCooldownSeconds: Double = 3600, time: any TimeSource, diagnostics: any DiagnosticSink, storageKey: String? = nil,
                waitsForRateLimits: Bool = false, pause: ProviderPause? = nil, health: (any ProviderHealthStore)? = nil) {
        self.health = health
        self.next = next
        self.provider = provider
        self.cooldowns = cooldowns
        self.longestWaitSeconds = longestWaitSeconds
        self.maxCooldownSeconds = maxCooldownSeconds
        self.time = time
        self.diagnostics = diagnostics
        self.storageKey = storageKey ?? provider.id
        self.waitsForRateLimits = waitsForRateLimits
        self.pause = pause
    }

    /// Waits out or skips a cooldown, then calls; records a 429's cooldown (and, when `waitsForRateLimits`, waits it out and asks again).
    public func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport {
        // Read with the fetch lease just before this step, when it was: used for the first turn only.
        var known = call.healthReadWithLease
        while true {
            var call = call
            call.healthReadWithLease = nil
            call.breakerReadWithCooldown = try await waitOut(before: call.deadline, known: known)
            known = nil
            do {
                return try await next.answer(call)
            } catch {
                // A 429 (however long it asks) or a failure whose answer said when to come back (a 5xx with Retry-After).
                let retryAfter: Double?
                let isRateLimit: Bool
                if case .rateLimited(let asked) = error.code, error.reason != .localLimit {
                    (retryAfter, isRateLimit) = (asked, true)
                } else if let asked = error.retryAfterSeconds {
                    (retryAfter, isRateLimit) = (asked, false)
                } else {
                    throw error
                }
                let status = isRateLimit ? "HTTP 429" : "Retry-After on a failed answer"
                let asked = retryAfter ?? Self.defaultRetryAfterSeconds
                let wait = min(asked, maxCooldownSeconds)
                let until = time.now().addingTimeInterval(wait)
                if wait <= longestWaitSeconds { pause?.pause(until: until) }
                do {
                    try await cooldowns.setCooldown(Cooldown(until: until, reason: status), provider: storageKey)
                } catch {
                    diagnostics.report(Diagnostic(.health, "cannot record the cooldown of \(provider.id): \(error.message)"))
                }
                // A batch waits the pause out (the next turn of the loop) and asks again, while the deadline allows.
                if waitsForRateLimits && wait <= longestWaitSeconds && until < call.deadline { continue }
                let name = provider.displayName
                if wait > longestWaitSeconds {
                    throw ProviderError(.unavailable,
                                        "\(name) asked to wait \(MessageTime.duration(asked)) (Retry-After); skipped until \(MessageTime.clock(until)) UTC",
                                        reason: .cooldown)
                }
                guard isRateLimit, asked > wait else { throw error }
                throw ProviderError(.rateLimited(retryAfterSeconds: wait),
                                    "\(name) asked to wait \(MessageTime.duration(asked)) (Retry-After); paused for \(MessageTime.duration(wait)), until \(MessageTime.clock(until)) UTC",
                                    reason: error.reason)
            }
        }
    }

    /// Waits out the provider's cooldown, if any; returns the breaker when it was read with the cooldown and no wait followed.
    /// `known` is the cooldown and breaker when just read (with the fetch lease); nil to read them.
    private func waitOut(before deadline: Date, known: HealthReading?) async throws(ProviderError) -> BreakerState? {
        var cooldown: Cooldown?
        var breaker: BreakerState?
        do {
            if let known {
                // Read for an instant a moment ago: a cooldown that has ended since is none.
                (cooldown, breaker) = (known.cooldown.flatMap { $0.until > time.now() ? $0 : nil }, known.breaker)
            } else if let health {
                (cooldown, breaker) = try await health.health(provider: storageKey, now: time.now())
            } else {
                cooldown = try await cooldowns.cooldown(provider: storageKey, now: time.now())
            }
        } catch {
            diagnostics.report(Diagnostic(.health, "cannot read the cooldown of \(provider.id): \(error.message)"))
            return nil
        }
        guard let cooldown else { return breaker }
        let wait = cooldown.until.timeIntervalSince(time.now())
        let name = provider.displayName
        if wait > longestWaitSeconds {
            throw ProviderError(.unavailable, "\(name) asked to wait until \(MessageTime.clock(cooldown.until)) UTC (\(cooldown.reason)); skipped",
                                reason: .cooldown)
        }
        guard cooldown.until < deadline else {
            throw ProviderError(.rateLimited(retryAfterSeconds: wait),
                                "\(name) asked for a pause until \(MessageTime.clock(cooldown.until)) UTC (\(cooldown.reason)), past this command's deadline",
                                reason: .cooldownWait)
        }
        try await IsobarEngine.pause(wait, on: time, provider: name)
        return nil
    }
}
