import FoundationEssentials
import IsobarCore
import Synchronization

/// The cache of the requests a source makes outside the pipeline whose answers are read whole (`learn`'s past forecasts
/// and archived reports): a kept answer within its lifetime ends the request without asking anyone, `offline` answers
/// only from what is kept (whatever its age), and an answer is kept only when `commit()` is called once it was decoded,
/// so that a body that failed to decode is never served again.
///
/// One entry per request, in the `past` slot, under the source's storage key and a fingerprint of the method and the
/// redacted URL; a body holding one of the request's secret values, or an answer that said `no-store`, is never kept.
public final class AnswerCachingTransport: Transport {
    /// What the cache may do, from the command's options.
    public struct Rules: Sendable {
        /// False to ask again whatever is kept (`--refresh`, `--record`); the answer is still kept.
        public var readCache = true
        /// True to answer only from what is kept, never sending (`--offline`).
        public var offline = false
        /// How long an answer stays fresh: the source's lifetime, its HTTP headers, `--max-age`.
        public var freshness: FreshnessRule

        /// Rules over `freshness`.
        public init(freshness: FreshnessRule, readCache: Bool = true, offline: Bool = false) {
            self.freshness = freshness
            self.readCache = readCache
            self.offline = offline
        }
    }

    private struct State {
        var pending: [(CacheKey, CacheEntry)] = []
        var kept = 0
    }

    /// The transport that sends on a miss.
    public let base: any Transport
    /// Where answers are kept; nil keeps nothing and reads nothing (offline then has nothing to answer from).
    public let cache: (any ResponseCache)?
    /// The source's storage key, the first part of every entry's key.
    public let storageKey: String
    /// What the cache may do.
    public let rules: Rules
    /// The clock answers are dated by.
    public let time: any TimeSource
    /// Where storage failures go.
    public let diagnostics: any DiagnosticSink
    /// The source's name, for messages.
    public let name: String
    private let state = Mutex(State())

    /// Keeps `base`'s answers in `cache` under `storageKey`, as `rules` say.
    public init(base: any Transport, cache: (any ResponseCache)?, storageKey: String, name: String, rules: Rules, time: any TimeSource,
                diagnostics: any DiagnosticSink) {
        self.base = base
        self.cache = cache
        self.storageKey = storageKey
        self.name = name
        self.rules = rules
        self.time = time
        self.diagnostics = diagnostics
    }

    /// How many requests were answered from the cache so far.
    public var answeredFromCache: Int { state.withLock { $0.kept } }

    /// The kept answer when it may be used, else the base's answer (remembered, to be kept at `commit()`); offline with
    /// nothing kept, `unavailable` with the reason `offline`.
    public func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        let key = Self.key(request, storageKey: storageKey)
        if rules.readCache || rules.offline, let kept = await entry(key) {
            if rules.offline || rules.freshness.isFresh(kept, slot: .past, now: time.now()) {
                state.withLock { $0.kept += 1 }
                return HTTPResponse(status: 200, headers: [], body: Array(kept.payload.utf8))
            }
        }
        if rules.offline {
            throw ProviderError(.unavailable, "\(name): offline, and nothing is cached for this request", reason: .offline)
        }
        let response = try await base.send(request)
        let now = time.now()
        guard cache != nil, response.status == 200, request.method == "GET" else { return response }
        let caching = HTTPCaching(response, receivedAt: now)
        guard !caching.noStore, let body = String(validating: response.body, as: UTF8.self),
              !request.secretValues.contains(where: { body.contains($0) }) else { return response }
        let entry = CacheEntry(fetchedAt: now, payload: body, lifetimeSeconds: caching.lifetimeSeconds, mustRevalidate: caching.mustRevalidate)
        state.withLock { $0.pending.append((key, entry)) }
        return response
    }

    /// Keeps the answers received since the last commit (call it once they were decoded and found good).
    public func commit() async {
        guard let cache else { return }
        let pending = state.withLock { state in
            defer { state.pending = [] }
            return state.pending
        }
        for (key, entry) in pending {
            do {
                try await cache.store(entry, for: key)
            } catch {
                diagnostics.report(Diagnostic(.cache, "cannot keep an answer of \(name): \(error.message)"))
            }
        }
    }

    /// The key of `request`'s answer: the storage key, the `past` slot, a fingerprint of the method and redacted URL.
    public static func key(_ request: HTTPRequest, storageKey: String) -> CacheKey {
        CacheKey(provider: storageKey, slot: .past, placeKey: Fingerprint.hex("\(request.method) \(request.redactedURL)"))
    }

    private func entry(_ key: CacheKey) async -> CacheEntry? {
        guard let cache else { return nil }
        do {
            return try await cache.entry(for: key)
        } catch {
            diagnostics.report(Diagnostic(.cache, "cannot read a kept answer of \(name): \(error.message)"))
            return nil
        }
    }
}
