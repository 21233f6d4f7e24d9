import Exec
import FoundationEssentials
import IsobarCore
import IsobarRedis
import IsobarRender
import IsobarStore
#if canImport(Glibc)
import Glibc
#endif

/// `isobar doctor`: every check, one line each with the fix when it fails; `checkFailed` when one fails.
struct DoctorCommand: IsobarCommand {
    static let spec = Commands.doctor
    /// What it runs with.
    let context: CommandContext
    /// Its arguments and options.
    let invocation: Invocation

    /// Seconds `isobar doctor` may take without `--timeout`.
    static let doctorSeconds = 10.0

    /// The largest difference from a provider's clock that still counts as sane, in seconds.
    static let clockToleranceSeconds = 60.0

    /// Runs the command and returns its exit code.
    func run() async throws -> ExitCode {
        if !invocation.positionals.isEmpty { throw UsageError("unexpected argument '\(invocation.positionals[0])' for 'doctor'") }
        let deadline = Date().addingTimeInterval(invocation.options.timeoutSeconds ?? Self.doctorSeconds)
        // Each request gets a short time of its own, or with --timeout all of it.
        let limits = invocation.options.timeoutSeconds.map { (connect: $0, total: $0) } ?? ProbeTransport.shortLimits
        var checks: [DoctorCheck] = []
        var configuration: Configuration?
        do {
            let loaded = try context.loadConfiguration(invocation)
            configuration = loaded
            checks.append(configurationCheck(loaded))
        } catch {
            checks.append(.failed("configuration", error.message, fix: "correct the file, or write a new one with isobar setup --force"))
        }
        checks.append(bundledDataCheck())
        let settings = configuration ?? context.registry.defaultConfiguration()
        checks.append(Self.folderCheck("cache folder", context.cacheDirectory(invocation, settings),
                                       fix: "make it writable, or choose another: --cache-dir DIR, cache_dir in the configuration, or XDG_CACHE_HOME"))
        checks.append(Self.folderCheck("data folder", context.userDataDirectory(), fix: "make it writable, or set XDG_DATA_HOME to a folder you can write"))
        var dates: [(host: String, date: Date)] = []
        if let configuration {
            let live = LazyTransport(make: context.makeLiveTransport)
            let entries = configuration.providers.filter(\.enabled)
            var needs: [[DoctorCheck]] = entries.map { requirementChecks($0) }
            let probed = await withTaskGroup(of: (Int, ProbeOutcome).self) { group in
                for (index, entry) in entries.enumerated() {
                    let missing = needs[index].first { $0.status == .failed }
                    group.addTask {
                        if let directory = entry.replay {
                            return (index, ProbeOutcome(check: .passed("network \(entry.id)", "replays the recordings in \(directory); no network needed"), dates: []))
                        }
                        if let missing {
                            return (index, ProbeOutcome(check: .unknown("network \(entry.id)", "not tried: \(missing.name) is missing"), dates: []))
                        }
                        return (index, await probe(entry, in: configuration, live: live, deadline: deadline, limits: limits))
                    }
                }
                var outcomes: [Int: ProbeOutcome] = [:]
                for await (index, outcome) in group { outcomes[index] = outcome }
                return outcomes
            }
            for index in entries.indices {
                if let outcome = probed[index] {
                    needs[index].append(outcome.check)
                    dates += outcome.dates
                }
                checks += needs[index]
            }
            checks.append(pluginsCheck(configuration))
            if let shared = await sharedStoreCheck(invocation, configuration, deadline: deadline) { checks.append(shared) }
        }
        checks.append(clockCheck(dates))
        let marks = DoctorMarks.choose(environment: context.environment)
        let failed = checks.filter { $0.status == .failed }.count
        let summary = failed == 0 ? "All \(checks.count) checks passed.\n" : "\(failed) of \(checks.count) checks failed.\n"
        context.write(TextReport(people: { _ in checks.map { $0.text(marks) }.joined() + "\n" + summary }, lines: {
            checks.map { JSONLine.text("doctor_check", $0.members) }.joined()
        }), as: invocation.options.format)
        return checks.contains { $0.status == .failed } ? .checkFailed : .success
    }

    /// The configuration in use, and a file holding a key that others may read.
    private func configurationCheck(_ configuration: Configuration) -> DoctorCheck {
        let enabled = configuration.providers.filter(\.enabled).map(\.id)
        let providers = enabled.isEmpty ? "no provider enabled" : "providers \(enabled.joined(separator: ", "))"
        guard let file = configuration.file else {
            return .passed("configuration", "built-in defaults (no file; isobar setup writes one), \(providers)")
        }
        var info = stat()
        let holdsSecret = configuration.providers.contains { $0.apiKey != nil } || configuration.sharedStore?.contains("@") == true
        if holdsSecret, stat(file, &info) == 0, info.st_mode & 0o077 != 0 {
            return .failed("configuration", "\(file) holds a key or password and others may read it", fix: "chmod 600 \(file)")
        }
        let yours = context.userConfigurationPath().map { ConfigurationFile.isPresent($0) } ?? false
        let note = yours || file == context.userConfigurationPath() ? "" : " (no file of yours; isobar setup writes one)"
        return .passed("configuration", "\(file) is valid\(note), \(providers)")
    }

    /// The bundled data (places, gazetteer, demo).
    private func bundledDataCheck() -> DoctorCheck {
        guard DataDirectory.hasDemo(environment: context.environment), let directory = DataDirectory.locate(environment: context.environment) else {
            return .failed("bundled data", DataDirectory.notFoundMessage(environment: context.environment),
                           fix: "set ISOBAR_DATA_DIR to the folder holding demo.json, or reinstall Isobar")
        }
        return .passed("bundled data", "found in \(directory)")
    }

    /// Whether a file can be made in `directory` (made, with its parents, when missing).
    static func folderCheck(_ name: String, _ directory: String?, fix: String) -> DoctorCheck {
        guard let directory else { return .failed(name, "no folder: HOME is not set", fix: fix) }
        if let failure = PrivateFiles.makeFolder(directory) {
            return .failed(name, "cannot make \(failure.folder) (\(String(cString: strerror(failure.errorNumber))))", fix: fix)
        }
        let probe = "\(directory)/.isobar-doctor-\(getpid())"
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            return .failed(name, "cannot write in \(directory) (\(String(cString: strerror(errno))))", fix: fix)
        }
        close(descriptor)
        unlink(probe)
        return .passed(name, "\(directory) can be written")
    }

    /// The key and the contact an enabled entry needs, each one line; none for an entry that needs neither (or replays).
    private func requirementChecks(_ entry: ProviderEntry) -> [DoctorCheck] {
        guard entry.replay == nil else { return [] }
        var checks: [DoctorCheck] = []
        if let variable = context.registry.keyVariable(entry) {
            let name = "key \(entry.id)"
            if entry.apiKey?.isEmpty == false {
                checks.append(.passed(name, "set in the configuration file (not shown)"))
            } else if context.registry.key(entry, context.environment) != nil {
                checks.append(.passed(name, "set in \(variable) (not shown)"))
            } else {
                checks.append(.failed(name, "\(variable) is not set", fix: "export \(variable)=YOUR_KEY (in ~/.profile to keep it)"))
            }
        }
        if let variable = context.registry.factory(for: entry.type)?.contactVariable {
            let name = "contact \(entry.id)"
            if let contact = entry.options.contact, !contact.allSatisfy(\.isWhitespace) {
                checks.append(.passed(name, "\(contact) (from the configuration)"))
            } else if let contact = context.environment[variable], !contact.allSatisfy(\.isWhitespace) {
                checks.append(.passed(name, "\(contact) (from \(variable))"))
            } else {
                checks.append(.failed(name, "no contact: its terms ask for one", fix: "isobar config set contact you@example.com (or export \(variable)=...)"))
            }
        }
        return checks
    }

    /// The plug-in programs found, listed and never run here.
    private func pluginsCheck(_ configuration: Configuration) -> DoctorCheck {
        let found = ExecDiscovery.discover(environment: context.environment).programs
        guard !found.isEmpty else {
            return .passed("plug-ins", "none found (\(ExecDiscovery.prefix)NAME in \(ExecDiscovery.folders(environment: context.environment).joined(separator: ":")))")
        }
        let listed = found.map { "\($0.name) (\(ProvidersAvailableCommand.pluginStatus($0, configuration).words))" }
        return .passed("plug-ins", "found \(listed.joined(separator: ", ")); none runs until enabled: isobar providers enable NAME")
    }

    /// Whether the shared store answers a PING, when one is configured; nil when none is.
    private func sharedStoreCheck(_ invocation: Invocation, _ configuration: Configuration, deadline: Date) async -> DoctorCheck? {
        let fix = "start Redis there, or correct or remove shared_store (or ISOBAR_REDIS_URL, --shared-store)"
        let url: RedisURL
        do {
            guard let given = try context.sharedStoreURL(invocation, configuration) else { return nil }
            url = given
        } catch {
            return .failed("shared store", error.message, fix: fix)
        }
        let milliseconds = Int(max(100, min(2_000, deadline.timeIntervalSinceNow * 1_000)))
        do {
            try await RedisStore(url: url, timeoutMilliseconds: milliseconds).ping()
            return .passed("shared store", "\(url.masked) answers")
        } catch {
            return .failed("shared store", error.message, fix: fix)
        }
    }

    /// The clock against the first `Date` header a provider sent.
    private func clockCheck(_ dates: [(host: String, date: Date)]) -> DoctorCheck {
        guard let (host, date) = dates.first else {
            return .unknown("clock", "cannot tell: no provider answered with a Date header to compare with")
        }
        let offset = context.time.now().timeIntervalSince(date)
        let size = abs(offset) < 120 ? "\(Int(abs(offset).rounded())) s" : "\(Int((abs(offset) / 60).rounded())) min"
        guard abs(offset) <= Self.clockToleranceSeconds else {
            return .failed("clock", "\(size) \(offset > 0 ? "ahead of" : "behind") \(host)'s clock",
                           fix: "turn on time synchronisation (timedatectl set-ntp true) or set the clock")
        }
        return .passed("clock", "within \(Int(Self.clockToleranceSeconds)) s of \(host)'s clock (\(size) apart)")
    }
}
