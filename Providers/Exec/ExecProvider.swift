import FoundationEssentials
import IsobarCore

/// A provider that is an outside program speaking the exec protocol: it plans HTTP requests that the host makes through its
/// own transport and decodes the responses (at most `maxRounds` rounds), or, when it declares `fetch`, returns the report itself.
public struct ExecProvider: WeatherProvider {
    /// Most plan/decode rounds in one fetch (for APIs that need a lookup first).
    public static let maxRounds = 3
    /// Longest a single call may take when the command sets no deadline.
    public static let defaultCallSeconds = 30.0
    /// A deadline farther away than this is none (a batch without `--timeout`): the program's own limits apply instead.
    public static let noDeadlineSeconds = 366 * 86_400.0
    /// How long before the call's deadline the program is stopped (at most a tenth of the time it is given).
    public static let spareSeconds = 0.2

    /// Configured id.
    public let id: String
    /// The program.
    public let program: ExecProgram
    /// What the program said about itself.
    public let description: ExecDescription
    /// The base URL the configuration gives it, passed on in every message.
    public let baseURL: RequestURL?
    /// Its key, given to it only because it declared one and its configuration entry grants one.
    public let key: String?
    /// The variable its configuration entry reads the key from (`api_key_env`), when it names one.
    public let grantedVariable: String?

    /// Name for people.
    public var displayName: String { description.name }
    /// What the program declared.
    public var capabilities: ProviderCapabilities { description.capabilities }
    /// The box the program declared, or the globe.
    public var coverage: Coverage { description.coverage }
    /// Met when it was given a key (only a program that declared one is); otherwise what to set, when it declared one.
    public var keyNeed: KeyNeed { key != nil ? .met : .unmet(advice: missingKey ?? "") }
    /// The key it was given.
    public var grantedKey: String? { key }
    /// True for a program that declared `fetch`.
    public var fetchesItself: Bool { description.mode == .fetch }

    /// A provider over a described program.
    public init(id: String, program: ExecProgram, description: ExecDescription, baseURL: RequestURL?, key: String?,
                grantedVariable: String? = nil) {
        self.id = id
        self.grantedVariable = grantedVariable
        var program = program
        if let key { program.secrets.append(key) }
        self.program = program
        self.description = description
        self.baseURL = baseURL
        self.key = key
    }

    /// What to do when the program declared a key and has none: set the variable its entry names, or grant it one (the
    /// variable it declares is only a request: `wants NAME; set "api_key_env" in its entry to grant it`). Nil otherwise.
    public var missingKey: String? {
        guard let wanted = description.keyVariable, key == nil else { return nil }
        if let grantedVariable { return "set \(grantedVariable)" }
        return "wants \(wanted); set \"api_key_env\" in its entry to grant it"
    }

    /// Not set up while the key it declared is missing (a place outside its coverage is left to `fetch`, which skips it).
    public func unusableReason(for request: WeatherRequest?) -> ProviderError? {
        guard let missingKey, request.map({ description.coverage.contains($0.place.coordinate) }) ?? true else { return nil }
        return ProviderError(.notConfigured, "\(displayName) needs an API key: \(missingKey)", setting: grantedVariable ?? description.keyVariable)
    }

    /// Plans, sends through the context's transport, and decodes; or lets the program fetch.
    public func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
        guard description.coverage.contains(request.place.coordinate) else {
            throw ProviderError(.unsupported, "\(displayName) has no data for \(request.place.label) (outside its coverage)", reason: .outsideCoverage)
        }
        if let unusable = unusableReason(for: request) { throw unusable }
        // The deadline is on the engine's clock; the program runs on the system clock.
        let deadline = Date().addingTimeInterval(Self.callSeconds(remaining: context.deadline.timeIntervalSince(context.time.now())))
        let reader = ExecReportReader(providerID: id)
        if description.mode == .fetch {
            let answer = try await program.exchange(ExecMessages.call("fetch", request, baseURL: baseURL, key: key), deadline: deadline)
            return try report(answer, reader, request, context)
        }
        var answer = try await program.call(ExecMessages.call("plan", request, baseURL: baseURL, key: key, round: 1), deadline: deadline)
        for round in 1...Self.maxRounds {
            let requests = try plannedRequests(answer)
            guard !requests.isEmpty else {
                throw ProviderError(.badResponse(path: "$.requests"), "\(id): the program planned no request")
            }
            var responses: [JSONOutput] = []
            for planned in requests {
                let response = try await context.transport.send(planned)
                responses.append(ExecMessages.encode(response, for: planned))
            }
            let state = try self.state(answer)
            let message = ExecMessages.call("decode", request, baseURL: baseURL, key: key, round: round, state: state, responses: responses)
            let decoded = try await program.exchange(message, deadline: deadline)
            if (try? decoded.answer.member(ifPresent: "report")) ?? nil != nil {
                return try report(decoded, reader, request, context)
            }
            answer = decoded.answer
        }
        throw ProviderError(.badResponse(path: "$.requests"), "\(id): the program asked for more than \(Self.maxRounds) rounds of requests")
    }

    /// Seconds a call may run when `remaining` are left of the command's deadline: all of them but a moment, so that the
    /// program's timeout ends the call (and is counted by the provider's breaker, as an HTTP provider's own timeout is) rather
    /// than the command's deadline cancelling it; `defaultCallSeconds` when the command has no deadline. A command's deadline
    /// alone bounds its calls, so that a slow machine within it is never a timeout.
    public static func callSeconds(remaining: Double) -> Double {
        guard remaining < noDeadlineSeconds else { return defaultCallSeconds }
        return remaining - min(spareSeconds, remaining / 10)
    }

    /// The requests of a `plan` or `decode` answer, checked: http(s) URLs, GET, no key outside a declared secret parameter or a header.
    func plannedRequests(_ answer: JSONValue) throws(ProviderError) -> [HTTPRequest] {
        do {
            guard let list = try answer.member(ifPresent: "requests") else {
                throw ProviderError(.badResponse(path: "$.requests"), "\(id): the program's answer has neither requests nor a report")
            }
            let elements = try list.elements()
            guard elements.count <= 8 else {
                throw ProviderError(.badResponse(path: list.path.description), "\(id): the program planned \(elements.count) requests; at most 8 per round")
            }
            return try elements.map { element throws in
                let urlValue = try element.member("url")
                guard let url = RequestURL(string: try urlValue.string()) else {
                    throw ProviderError(.badResponse(path: urlValue.path.description), "\(id): the program planned a request that is not an http(s) URL")
                }
                let method = try element.optionalString("method") ?? "GET"
                guard method == "GET" else {
                    throw ProviderError(.unsupported, "\(id): the program planned a \(method) request; only GET is made")
                }
                var headers: [HTTPHeader] = []
                for pair in try element.nonNullMember("headers")?.elements() ?? [] {
                    let parts = try pair.elements()
                    guard parts.count == 2 else {
                        throw ProviderError(.badResponse(path: pair.path.description), "\(id): a header must be [name, value]")
                    }
                    headers.append(HTTPHeader(try parts[0].string(), try parts[1].string()))
                }
                var secretNames = description.keyQueryNames
                for name in try element.nonNullMember("secret_query_names")?.elements() ?? [] { secretNames.insert(try name.string()) }
                let planned = HTTPRequest(url: url, headers: headers, secretQueryNames: secretNames, origin: displayName)
                if let key, !key.isEmpty, planned.redactedURL.contains(key) || PercentEncoding.decode(Substring(planned.redactedURL))?.contains(key) == true {
                    throw ProviderError(.badRequest, "\(id): the program put its API key in the URL outside a secret parameter; refused")
                }
                return planned
            }
        } catch let error as ProviderError {
            throw error.redacting(program.secrets)
        } catch let error as JSONError {
            throw ProviderError(.badResponse(path: error.path), "\(id): the program's requests are wrong: \(error)")
        } catch {
            throw ProviderError(.badResponse(path: "$.requests"), "\(id): the program's requests cannot be read")
        }
    }

    /// The report of an answer; one that repeats the key is refused (it would be cached and shown).
    private func report(_ exchange: (answer: JSONValue, repeatsSecret: Bool), _ reader: ExecReportReader, _ request: WeatherRequest,
                        _ context: FetchContext) throws(ProviderError) -> WeatherReport {
        guard !exchange.repeatsSecret else {
            throw ProviderError(.badResponse(path: "$.report"), "\(id): the program's report repeats its API key; refused")
        }
        return try reader.read(exchange.answer, request: request, now: context.time.now())
    }

    private func state(_ answer: JSONValue) throws(ProviderError) -> JSONOutput? {
        do {
            return try answer.member(ifPresent: "state").map { value throws(JSONError) in try JSONOutput(copying: value) }
        } catch {
            throw ProviderError(.badResponse(path: error.path), "\(id): the program's state cannot be read: \(error)")
        }
    }
}
