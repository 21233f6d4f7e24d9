import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRender
import IsobarStore

/// `isobar providers list` (and `isobar providers`): each configured provider with its capabilities, limits and their use,
/// cooldown and breaker.
struct ProvidersListCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Writes each provider with its state.
    func run() async throws -> ExitCode {
        if invocation.positionals.count > 1 { throw UsageError("unexpected argument '\(invocation.positionals[1])' for 'providers list'") }
        if invocation.options.demo && (invocation.options.configFile != nil) { throw UsageError("--demo and --config cannot be used together") }
        let configuration = try context.loadConfiguration(invocation)
        let bindings = try await context.registry.bindings(for: configuration, environment: context.environment, time: context.time, live: { NoNetworkTransport() })
        // Only reads: the use of each limit is read from a cache on a read-only disk too.
        let store = bindings.contains { $0.policy != nil } ? await context.openStore(invocation, configuration, acceptsReadOnly: true) : nil
        let shared = try context.openSharedStore(invocation, configuration, bindings: bindings)
        let storage = store == nil && shared == nil ? nil
            : context.engineStorage(store, shared: shared, bindings: bindings, maxAgeSeconds: invocation.options.maxAgeSeconds)
        let now = context.time.now()
        let diagnostics = context.diagnosticLog(invocation)
        var text = "Providers (\(configuration.file ?? "built-in defaults")):\n\n"
        var lines = ""
        if let shared { text += "Limits, cooldowns and breakers shared through \(shared.store.location).\n\n" }
        for binding in bindings {
            let provider = binding.provider
            let entry = configuration.providers.first { $0.id == provider.id }
            let capabilities = provider.capabilities
            let needsKey = capabilities.requiresAPIKey && entry?.replay == nil
            let (configured, keyAdvice): (Bool, String)
            switch provider.keyNeed {
            case .asConfigured:
                configured = !needsKey || entry.flatMap { context.registry.key($0, context.environment) } != nil
                keyAdvice = "set \(entry.flatMap(context.registry.keyVariable) ?? "its API key variable (api_key_env)")"
            case .met: (configured, keyAdvice) = (true, "")
            case .unmet(let advice): (configured, keyAdvice) = (!needsKey, advice)
            }
            let mode = entry?.replay.map { "replay \($0)" } ?? "live"
            let limits = binding.policy?.rateLimits ?? []
            let health = await health(of: binding.storageKey, limits: limits, in: storage, now: now, diagnostics: diagnostics)
            let (usage, cooldown, breaker) = (health.usage, health.cooldown, health.breaker)
            let breakerText = breaker.map { state -> String in
                let last = state.lastFailure.map { "; the last: \($0)" } ?? ""
                guard let openedAt = state.openedAt else { return state.failures == 0 ? "closed" : "closed (\(state.failures) failure(s)\(last))" }
                return (now.timeIntervalSince(openedAt) < EngineOptions().breakerOpenSeconds ? "open since \(ProvidersCommand.utc(openedAt))" : "half-open")
                    + (last.isEmpty ? "" : " (after \(state.failures) failed attempts\(last))")
            } ?? "closed"
            lines += JSONLine.text("provider_info", [
                ("provider", .string(provider.id)), ("provider_name", .string(provider.displayName)), ("provider_type", .string(entry?.type ?? "")),
                ("mode", .string(entry?.replay == nil ? "live" : "replay")), ("configured", .bool(configured)),
                ("kinds", .array(DataKind.allCases.filter(capabilities.kinds.contains).map { .string($0.rawValue) })),
                ("horizon_days", .integer(capabilities.horizonDays)), ("step_hours", .integer(capabilities.stepHours)),
                ("geocoding", .bool(capabilities.geocoding)),
                ("ttl_s", .object([("current", .number(binding.policy.map { OutputNumber.round3($0.currentTTLSeconds) })),
                                   ("forecast", .number(binding.policy.map { OutputNumber.round3($0.forecastTTLSeconds) }))])),
                ("rate_limits", .array(zip(limits, usage).map { limit, used in
                    .object([("limit", .number(OutputNumber.round3(limit.limit))), ("per_s", .number(OutputNumber.round3(limit.perSeconds))),
                             ("used", .number(OutputNumber.round3(used)))])
                })),
                ("cooldown_until", .string(cooldown.map { CivilTime.iso($0.until, utcOffsetSeconds: 0) })),
                ("breaker", .string(breakerText)),
            ])
            text += "\(provider.id) (\(provider.displayName), type \(entry?.type ?? "?")): \(mode)"
            text += configured ? "\n" : ", NOT CONFIGURED: \(keyAdvice)\n"
            for note in entry?.options.notes ?? [] { text += "  \(note)\n" }
            if let reason = provider.unusableReason(for: nil) { text += "  UNUSABLE: \(reason.message)\n" }
            let kinds = DataKind.allCases.filter(capabilities.kinds.contains).map(\.rawValue).joined(separator: ", ")
            // An alert source gives no weather: no horizon or steps to tell.
            let forecasts = !capabilities.kinds.isDisjoint(with: DataKind.weather)
            text += "  data: \(kinds)" + (forecasts ? "; \(capabilities.horizonDays) days in \(capabilities.stepHours)-hour steps" : "")
                + (capabilities.geocoding ? "; finds places by name\n" : "\n")
            if let policy = binding.policy {
                text += "  fresh for: current \(CacheCommand.age(policy.currentTTLSeconds)), forecast \(CacheCommand.age(policy.forecastTTLSeconds))\n"
                let windows = zip(limits, usage).map { limit, used in
                    "\(JSONOutput.format((used * 10).rounded() / 10))/\(JSONOutput.format(limit.limit)) per \(CacheCommand.age(limit.perSeconds))"
                }
                text += "  rate limits (used/limit): \(windows.isEmpty ? "none" : windows.joined(separator: ", "))\n"
                text += "  cooldown: \(cooldown.map { "until \(ProvidersCommand.utc($0.until)) (\($0.reason))" } ?? "none"); breaker: \(breakerText)\n"
            }
            text += "\n"
        }
        if let problems = ProvidersCommand.problemSummary(diagnostics) { text += problems + "\n" }
        context.write(TextReport(people: { TextWrap.fit(text, width: $0) }, lines: { lines }), as: invocation.options.format)
        return .success
    }

    /// Rate-limit use, cooldown and breaker of a provider; what cannot be read goes to `diagnostics` and shows as unused.
    private func health(of provider: String, limits: [RateLimit], in storage: EngineStorage?, now: Date,
                        diagnostics: DiagnosticLog) async -> (usage: [Double], cooldown: Cooldown?, breaker: BreakerState?) {
        guard let storage else { return (limits.map { _ in 0 }, nil, nil) }
        do throws(StorageError) {
            return (try await storage.ledger.usage(provider: provider, windows: limits, now: now),
                    try await storage.cooldowns.cooldown(provider: provider, now: now), try await storage.breakers.breaker(provider: provider))
        } catch {
            diagnostics.report(Diagnostic(.health, "cannot read the state of \(provider): \(error.message)"))
            return (limits.map { _ in 0 }, nil, nil)
        }
    }
}
