import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRender

extension IsobarCommandLine {
    /// `isobar providers check ID [PLACE]`: every conformance rule and the report validation, run against one configured
    /// provider, each rule's verdict printed; 0 when all pass, `checkFailed` otherwise.
    func runProvidersCheck(_ parsed: Invocation) async throws -> ExitCode {
        guard parsed.positionals.count >= 2 else {
            throw UsageError("'providers check' needs a provider ID (and optionally a PLACE); see 'isobar providers --help'")
        }
        let id = parsed.positionals[1]
        let configuration = try checkedConfiguration(parsed, id: id)
        let bindings = try await registry.bindings(for: configuration, environment: environment, time: time, live: makeLiveTransport)
        guard let binding = bindings.first, let entry = configuration.providers.first else {
            throw ConfigurationError("provider '\(id)' could not be set up")
        }
        let provider = binding.provider
        let place = try await checkedPlace(parsed.positionals.count > 2 ? parsed.positionals[2] : nil, for: provider)
        // The key that must never show in an error: the entry's, or the one a plug-in declared and was given.
        let secret = entry.replay == nil ? provider.grantedKey ?? registry.key(entry, environment) : nil
        let verdicts = await ConformanceVerdicts.check(provider, transport: binding.transport, place: place, secret: secret, time: time)
        let failed = verdicts.filter { $0.outcome == .fail }
        if parsed.options.format == .jsonl {
            output.write(verdicts.map { verdict in
                line("provider_check", [
                    ("provider", .string(provider.id)), ("place", Self.placeJSON(place)), ("rule", .string(verdict.rule)),
                    ("verdict", .string(verdict.outcome.rawValue)), ("detail", .string(verdict.detail)),
                ])
            }.joined())
        } else {
            output.write(checkReport(verdicts, provider: provider, mode: entry.replay.map { "replay \($0)" } ?? "live", place: place))
        }
        return failed.isEmpty ? .success : .checkFailed
    }

    /// The configuration with only provider `id`, enabled, replayed from `--replay DIR/ID` when given.
    private func checkedConfiguration(_ parsed: Invocation, id: String) throws -> Configuration {
        if parsed.options.demo && (parsed.options.configFile != nil) { throw UsageError("--demo and --config cannot be used together") }
        var configuration = try loadConfiguration(parsed)
        // Any id output prints: an entry's, or one of its models' (the entry that asks for it is checked).
        let reference = try SourceReference(id, in: configuration)
        guard var entry = SourceReference.select([reference], from: configuration).first else {
            throw UsageError("unknown provider '\(id)'")
        }
        if let directory = parsed.options.replayDirectory { entry.replay = directory + "/" + entry.id }
        configuration.providers = [entry]
        return configuration
    }

    /// The place named, or without one the first bundled place the provider covers.
    private func checkedPlace(_ text: String?, for provider: any WeatherProvider) async throws -> Place {
        let now = time.now()
        if let text {
            let chain = GeocodingChain(geocoders: [], cache: nil, diagnostics: DiagnosticLog { _ in })
            return try await resolvePlace(text, geocoding: chain, network: nil).place.withZoneOffset(at: now)
        }
        guard let place = try places().places.first(where: { provider.coverage.contains($0.coordinate) }) else {
            throw UsageError("no bundled place lies in the coverage of '\(provider.id)'; name a PLACE: isobar providers check \(provider.id) PLACE")
        }
        return place.withZoneOffset(at: now)
    }

    /// The verdicts as a table, then the details of what failed and one line of summary.
    private func checkReport(_ verdicts: [RuleVerdict], provider: any WeatherProvider, mode: String, place: Place) -> String {
        var text = "Checking \(provider.id) (\(provider.displayName), \(mode)) on \(place.label):\n\n"
        var table = TextTable(header: ["Rule", "Verdict"])
        table.leftAligned = [0, 1]
        table.narrowing = [.truncate(0, minimum: 24)]
        for verdict in verdicts {
            table.rows.append([verdict.rule, verdict.outcome == .fail ? "FAIL" : verdict.outcome.rawValue.replacingUnderscores])
        }
        text += table.render(width: width)
        let failed = verdicts.filter { $0.outcome == .fail }
        for verdict in failed { text += "\n" + TextWrap.fit("FAIL \(verdict.rule): \(verdict.detail ?? "")", width: width) }
        let counted = verdicts.filter { $0.outcome == .pass || $0.outcome == .fail }.count
        text += failed.isEmpty
            ? "\nAll \(counted) rules checked pass.\n"
            : "\n\n\(failed.count) of \(counted) rules checked fail.\n"
        return text
    }
}
