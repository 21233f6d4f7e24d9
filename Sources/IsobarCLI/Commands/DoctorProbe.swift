import FoundationEssentials
import IsobarCore
import IsobarEngine
import Synchronization

/// A transport that holds every request of `isobar doctor` to short limits and the command's deadline, and keeps what
/// came of each: the host, the status and `Date` header of an answer, or the failure.
final class ProbeTransport: Transport {
    /// What came of one request.
    struct Exchange: Sendable {
        /// The host asked.
        var host: String
        /// True when the request was sent over TLS.
        var secure: Bool
        /// The answer's status, when there was one.
        var status: Int?
        /// The answer's `Date` header, when it had a readable one.
        var date: Date?
        /// Seconds it was given to connect: the connect limit, or less when that much was not left before the deadline.
        var connectSeconds: Double
    }

    /// Seconds allowed to connect and for the whole exchange, at most, unless `--timeout` says otherwise.
    static let shortLimits = (connect: 3.0, total: 6.0)

    private let base: any Transport
    private let deadline: Date
    /// Seconds allowed to connect and for the whole exchange, at most.
    let limits: (connect: Double, total: Double)
    private let seen = Mutex<[Exchange]>([])

    /// Watches requests sent through `base`, each held to `limits`, none of which may end after `deadline`.
    init(base: any Transport, deadline: Date, limits: (connect: Double, total: Double)) {
        self.base = base
        self.deadline = deadline
        self.limits = limits
    }

    /// What came of each request so far, in order.
    var exchanges: [Exchange] { seen.withLock { $0 } }

    /// Sends with the limits shortened; records the outcome.
    func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        var held = request
        var limits = request.limits ?? TransferLimits()
        limits.connectTimeoutSeconds = min(limits.connectTimeoutSeconds, self.limits.connect)
        limits.totalTimeoutSeconds = min(limits.totalTimeoutSeconds, self.limits.total)
        held.limits = limits
        let notAfter = min(request.notAfter ?? deadline, deadline)
        held.notAfter = notAfter
        var exchange = Exchange(host: request.url.host, secure: request.url.scheme == "https",
                                connectSeconds: min(limits.connectTimeoutSeconds, max(0, notAfter.timeIntervalSinceNow)))
        do {
            let response = try await base.send(held)
            exchange.status = response.status
            exchange.date = response.header("Date").flatMap { RetryAfter.httpDate($0.trimmingSpaces()) }
            seen.withLock { $0.append(exchange) }
            return response
        } catch {
            seen.withLock { $0.append(exchange) }
            throw error
        }
    }
}

/// The network check of one provider and the `Date` headers its answers carried.
struct ProbeOutcome: Sendable {
    /// The check's line.
    var check: DoctorCheck
    /// Each host that answered with a `Date`, and that date.
    var dates: [(host: String, date: Date)]
}

extension DoctorCommand {
    /// The network check of an enabled live entry: its provider built as any command builds it and asked once for current
    /// conditions at a bundled place it covers, through `live` with each request held to `limits`; what failed says which step broke.
    func probe(_ entry: ProviderEntry, in configuration: Configuration, live: any Transport, deadline: Date,
               limits: (connect: Double, total: Double)) async -> ProbeOutcome {
        let name = "network \(entry.id)"
        var single = configuration
        single.providers = [entry]
        let watch = ProbeTransport(base: live, deadline: deadline, limits: limits)
        let binding: ProviderBinding
        do {
            guard let built = try await context.registry.bindings(for: single, environment: context.environment, time: context.time, deadline: deadline,
                                                          live: { watch }).first else {
                return ProbeOutcome(check: .unknown(name, "not tried: the provider is not enabled"), dates: [])
            }
            binding = built
        } catch {
            return ProbeOutcome(check: .failed(name, error.message, fix: "fix the entry '\(entry.id)' in \(configuration.file ?? "the configuration")"),
                                dates: [])
        }
        let provider = binding.provider
        guard let place = probePlace(for: provider) else {
            return ProbeOutcome(check: .unknown(name, "not tried: no bundled place lies in its coverage"), dates: [])
        }
        let kinds: Set<DataKind> = provider.capabilities.kinds.contains(.current) ? [.current]
            : Set(DataKind.allCases.filter(provider.capabilities.kinds.contains).prefix(1))
        var failure: ProviderError?
        do {
            _ = try await provider.fetch(WeatherRequest(place: place, kinds: kinds),
                                         context: FetchContext(transport: binding.transport, time: context.time, deadline: deadline, onlyAskedKinds: true))
        } catch {
            failure = error.redacting(context.registry.key(entry, context.environment).map { [$0] } ?? [])
        }
        let exchanges = watch.exchanges
        let dates = exchanges.compactMap { exchange in exchange.date.map { (host: exchange.host, date: $0) } }
        return ProbeOutcome(check: Self.judge(name, entry: entry, keyVariable: context.registry.keyVariable(entry), connectSeconds: limits.connect,
                                              exchanges, failure), dates: dates)
    }

    /// The first bundled place the provider covers; Minsk when the bundled places cannot be read and it covers Minsk.
    private func probePlace(for provider: any WeatherProvider) -> Place? {
        let bundled = (try? context.places())?.places ?? []
        let fallback = Coordinate(latitude: 53.9, longitude: 27.5667).map { Place(name: "Minsk", coordinate: $0) }
        let candidates = bundled.isEmpty ? fallback.map { [$0] } ?? [] : bundled
        return candidates.first { provider.coverage.contains($0.coordinate) }?.withZoneOffset(at: context.time.now())
    }

    /// The check's line from what came of the requests and the fetch's failure.
    static func judge(_ name: String, entry: ProviderEntry, keyVariable: String?, connectSeconds: Double, _ exchanges: [ProbeTransport.Exchange],
                      _ failure: ProviderError?) -> DoctorCheck {
        let last = exchanges.last
        let host = last?.host ?? entry.baseURL?.host ?? entry.id
        let steps = last?.secure == false ? "name found, connected" : "name found, connected, TLS agreed"
        let network = "check the network connection, a firewall or proxy, and the entry's base_url"
        guard let failure else {
            return .passed(name, "\(host): \(steps), HTTP \(last?.status.map { String($0) } ?? "answer") with current conditions")
        }
        if let status = last?.status {
            switch failure.code {
            case .unauthorized:
                let key = entry.apiKey != nil ? "the api_key of '\(entry.id)'" : keyVariable.map { "the key in \($0)" } ?? "the key"
                return .failed(name, "\(host) answered HTTP \(status): the key was refused",
                               fix: "check \(key); a new key can take a few hours to become active")
            case .rateLimited:
                return .passed(name, "\(host): \(steps), HTTP \(status): rate limited just now, so it answers but asks to wait")
            default:
                if status >= 500 {
                    return .failed(name, "\(host) answered HTTP \(status): the service has a problem", fix: "try again later")
                }
                return .failed(name, "\(host) answered HTTP \(status), but: \(failure.message)",
                               fix: "check the entry's base_url; if it stays so, run isobar providers check \(entry.id)")
            }
        }
        guard last != nil else {
            if failure.code == .notConfigured { return .failed(name, "not asked: \(failure.message)", fix: "see the lines above") }
            return .failed(name, "no request was sent: \(failure.message)", fix: "fix the entry '\(entry.id)' in the configuration")
        }
        switch failure.reason {
        case .dnsFailure:
            return .failed(name, "cannot find \(host) (name lookup failed)", fix: "check the network connection and DNS (/etc/resolv.conf), and the host name")
        case .connectionRefused:
            return .failed(name, "\(host): name found, but the connection was refused or the host cannot be reached", fix: network)
        case .connectTimeout:
            // A tenth or more of the connect limit was gone before the request went out (with `--timeout T` the limit and
            // the deadline are both T, so a little always is): the host was not given its time, and the deadline is said.
            let given = last?.connectSeconds ?? connectSeconds
            guard given < connectSeconds * 0.9 else {
                return .failed(name, "\(host): name found, but no connection within \(SpokenDuration.seconds(given)) s", fix: network)
            }
            return .failed(name, "\(host): name found, but no connection within the \(SpokenDuration.seconds(given)) s left before the deadline",
                           fix: "try again with a longer --timeout; if it stays so, \(network)")
        case .tlsFailure:
            return .failed(name, "\(host): connected, but TLS failed: \(failure.message)",
                           fix: "check the system's CA certificates (the ca-certificates package), the clock, and any proxy")
        default:
            if failure.code == .timeout || failure.reason == .deadline {
                return .failed(name, "\(host): no complete answer in time (\(failure.message))", fix: "try again; a slow network may need a longer --timeout")
            }
            return .failed(name, failure.message, fix: network)
        }
    }
}
