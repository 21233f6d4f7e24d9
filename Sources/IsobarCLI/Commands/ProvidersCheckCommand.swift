import FoundationEssentials
import IsobarCore
import IsobarEngine
import IsobarRender

/// `isobar providers check ID [PLACE]`: every conformance rule and the report validation, run against one configured
struct ProvidersCheckCommand: ActionCommand {
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Runs the command and returns its exit code.
    /// provider, each rule's verdict printed; 0 when all pass, `checkFailed` otherwise.
    func run() async throws -> ExitCode {
        guard invocation.positionals.count >= 2 else {
            throw UsageError("'providers check' needs a provider ID (and optionally a PLACE); see 'isobar providers --help'")
        }
        let id = invocation.positionals[1]
        let configuration = try checkedConfiguration(invocation, id: id)
        // `--timeout` bounds the whole check: a plug-in's describe call, then every fetch (none without it: each call's own limits).
        let seconds = invocation.options.timeoutSeconds
        let deadline = seconds.map { context.time.now().addingTimeInterval($0) } ?? .distantFuture
        let bindings = try await context.registry.bindings(for: configuration, environment: context.environment, time: context.time,
                                                           deadline: seconds.map { Date().addingTimeInterval($0) }, live: context.makeLiveTransport)
        guard let binding = bindings.first, let entry = configuration.providers.first else {
            throw ConfigurationError("provider '\(id)' could not be set up")
        }
        let provider = binding.provider
        let place = try await checkedPlace(invocation.positionals.count > 2 ? invocation.positionals[2] : nil, for: provider)
        // The key that must never show in an error: the entry's, or the one a plug-in declared and was given.
        let secret = entry.replay == nil ? provider.grantedKey ?? context.registry.key(entry, context.environment) : nil
        let verdicts = await ConformanceVerdicts.check(provider, transport: binding.transport, place: place, secret: secret, time: context.time,
                                                       deadline: deadline)
        let failed = verdicts.filter { $0.outcome == .fail }
        context.write(TextReport(people: { _ in checkReport(verdicts, provider: provider, mode: entry.replay.map { "replay \($0)" } ?? "live", place: place) },
                                 lines: { verdicts.map { verdict in
                JSONLine.text("provider_check", [
                    ("provider", .string(provider.id)), ("place", PlaceJSON.object(place)), ("rule", .string(verdict.rule)),
                    ("verdict", .string(verdict.outcome.rawValue)), ("detail", .string(verdict.detail)),
                ])
            }.joined() }), as: invocation.options.format)
        return failed.isEmpty ? .success : .checkFailed
    }

    /// The configuration with only provider `id`, enabled, replayed from `--replay DIR/ID` when given.
    private func checkedConfiguration(_ invocation: Invocation, id: String) throws -> Configuration {
        if invocation.options.demo && (invocation.options.configFile != nil) { throw UsageError("--demo and --config cannot be used together") }
        var configuration = try context.loadConfiguration(invocation)
        // Any id output prints: an entry's, or one of its models' (the entry that asks for it is checked).
        let reference = try SourceReference(id, in: configuration)
        guard var entry = SourceReference.select([reference], from: configuration).first else {
            throw UsageError("unknown provider '\(id)'")
        }
        if let directory = invocation.options.replayDirectory { entry.replay = directory + "/" + entry.id }
        configuration.providers = [entry]
        return configuration
    }

    /// The place named, or without one the first bundled place the provider covers.
    private func checkedPlace(_ text: String?, for provider: any WeatherProvider) async throws -> Place {
        let now = context.time.now()
        if let text {
            let chain = GeocodingChain(geocoders: [], cache: nil, diagnostics: DiagnosticLog { _ in })
            return try await context.resolvePlace(text, geocoding: chain, network: nil).place.withZoneOffset(at: now)
        }
        guard let place = try context.places().places.first(where: { provider.covers($0) }) else {
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
        text += table.render(width: context.width)
        let failed = verdicts.filter { $0.outcome == .fail }
        for verdict in failed { text += "\n" + TextWrap.fit("FAIL \(verdict.rule): \(verdict.detail ?? "")", width: context.width) }
        let counted = verdicts.filter { $0.outcome == .pass || $0.outcome == .fail }.count
        text += failed.isEmpty
            ? "\nAll \(counted) rules checked pass.\n"
            : "\n\n\(failed.count) of \(counted) rules checked fail.\n"
        return text
    }
}
