import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarStore

extension IsobarCommandLine {
    /// `isobar providers`: each configured provider with its capabilities, limits and their use, cooldown and breaker.
    func runProviders(_ parsed: ParsedArguments) throws -> ExitCode {
        if parsed.has("demo") && parsed.has("config") { throw UsageError("--demo and --config cannot be used together") }
        let configuration = try loadConfiguration(parsed)
        let bindings = try registry.bindings(for: configuration, environment: environment, live: { NoNetworkTransport() })
        let store = bindings.contains { $0.policy != nil } ? openStore(parsed, configuration) : nil
        let now = time.now()
        let jsonl = parsed["format"] == "jsonl"
        var text = jsonl ? "" : "Providers (\(configuration.file ?? "built-in defaults")):\n\n"
        for binding in bindings {
            let provider = binding.provider
            let entry = configuration.providers.first { $0.id == provider.id }
            let capabilities = provider.capabilities
            let needsKey = capabilities.requiresAPIKey && entry?.replay == nil
            let keyEnv = entry?.keyVariable ?? "OPENWEATHERMAP_API_KEY"
            let configured = !needsKey || entry?.resolvedKey(environment) != nil
            let mode = entry?.replay.map { "replay \($0)" } ?? "live"
            let limits = binding.policy?.rateLimits ?? []
            let usage = (try? store?.usage(provider: provider.id, windows: limits, now: now)) ?? limits.map { _ in 0 }
            let cooldown = try? store?.cooldown(provider: provider.id, now: now)
            let breaker = try? store?.breaker(provider: provider.id)
            let breakerText = breaker.map { state -> String in
                guard let openedAt = state.openedAt else { return state.failures == 0 ? "closed" : "closed (\(state.failures) failure(s))" }
                return now.timeIntervalSince(openedAt) < EngineOptions().breakerOpenSeconds ? "open since \(Self.utc(openedAt))" : "half-open"
            } ?? "closed"
            if jsonl {
                text += line("provider_info", [
                    ("provider", .string(provider.id)), ("provider_name", .string(provider.displayName)), ("type", .string(entry?.type ?? "")),
                    ("mode", .string(entry?.replay == nil ? "live" : "replay")), ("configured", .bool(configured)),
                    ("kinds", .array(DataKind.allCases.filter(capabilities.kinds.contains).map { .string($0.rawValue) })),
                    ("horizon_days", .integer(capabilities.horizonDays)), ("step_hours", .integer(capabilities.stepHours)),
                    ("geocoding", .bool(capabilities.geocoding)),
                    ("ttl_s", .object([("current", .number(binding.policy?.currentTTLSeconds)), ("forecast", .number(binding.policy?.forecastTTLSeconds))])),
                    ("rate_limits", .array(zip(limits, usage).map { limit, used in
                        .object([("limit", .number(limit.limit)), ("per_s", .number(limit.perSeconds)), ("used", .number((used * 1000).rounded() / 1000))])
                    })),
                    ("cooldown_until", .string(cooldown.map { CivilTime.iso($0.until, utcOffsetSeconds: 0) })),
                    ("breaker", .string(breakerText)),
                ])
                continue
            }
            text += "\(provider.id) (\(provider.displayName), type \(entry?.type ?? "?")): \(mode)"
            text += configured ? "\n" : ", NOT CONFIGURED: set \(keyEnv)\n"
            let kinds = DataKind.allCases.filter(capabilities.kinds.contains).map(\.rawValue).joined(separator: ", ")
            text += "  data: \(kinds); \(capabilities.horizonDays) days in \(capabilities.stepHours)-hour steps"
                + (capabilities.geocoding ? "; finds places by name\n" : "\n")
            if let policy = binding.policy {
                text += "  fresh for: current \(Self.age(policy.currentTTLSeconds)), forecast \(Self.age(policy.forecastTTLSeconds))\n"
                let windows = zip(limits, usage).map { limit, used in
                    "\(JSONOutput.format((used * 10).rounded() / 10))/\(JSONOutput.format(limit.limit)) per \(Self.age(limit.perSeconds))"
                }
                text += "  rate limits (used/limit): \(windows.isEmpty ? "none" : windows.joined(separator: ", "))\n"
                text += "  cooldown: \(cooldown.map { "until \(Self.utc($0.until)) (\($0.reason))" } ?? "none"); breaker: \(breakerText)\n"
            }
            text += "\n"
        }
        output.write(text)
        return .success
    }

    static func utc(_ date: Date) -> String {
        "\(LocalDate(date, utcOffsetSeconds: 0)) \(CivilTime.clock(date, utcOffsetSeconds: 0)) UTC"
    }
}
