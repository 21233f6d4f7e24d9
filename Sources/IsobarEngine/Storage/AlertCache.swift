import FoundationEssentials
import IsobarCore

/// What an alert source keeps between runs, in the response cache under the slot `alerts`: its last answer for each place,
/// when it last polled each place (for the polling floor of its terms), and the published files it fetched once (CAP files,
/// which never change). A storage failure is read as nothing kept: alerts are then asked for, never withheld.
public struct AlertCache: Sendable {
    /// An answer kept for a place.
    public struct Kept: Sendable, Equatable {
        /// When the source answered.
        public var fetchedAt: Date
        /// Its alerts.
        public var alerts: [Alert]
        /// Its notices.
        public var notices: [String]
        /// Seconds the answer stays fresh by its HTTP headers, when they said.
        public var lifetimeSeconds: Double?
        /// True when its headers said it must never be served past its lifetime.
        public var mustRevalidate: Bool
    }

    /// Where entries live.
    public let cache: any ResponseCache
    /// The source's storage key (see `ProviderBinding.storageKey`).
    public let storageKey: String

    /// A cache of the source stored under `storageKey`.
    public init(cache: any ResponseCache, storageKey: String) {
        self.cache = cache
        self.storageKey = storageKey
    }

    /// The answer kept for the place at `coordinate`, if any can be read.
    public func answer(for coordinate: Coordinate) async -> Kept? {
        guard let entry = try? await cache.entry(for: key(ReportCache.placeKey(coordinate))),
              let (alerts, notices) = AlertCodec.decode(entry.payload) else { return nil }
        return Kept(fetchedAt: entry.fetchedAt, alerts: alerts, notices: notices, lifetimeSeconds: entry.lifetimeSeconds,
                    mustRevalidate: entry.mustRevalidate)
    }

    /// Keeps `report`'s alerts for its place, with the lifetime its headers gave; `no-store` removes what was kept instead.
    public func keep(_ report: WeatherReport) async {
        let key = key(ReportCache.placeKey(report.place.coordinate))
        let caching = report.caching ?? HTTPCaching()
        if caching.noStore {
            try? await cache.removeEntry(for: key)
            return
        }
        let entry = CacheEntry(fetchedAt: report.fetchedAt, payload: AlertCodec.encode(report.alerts, notices: report.notices),
                               lifetimeSeconds: caching.lifetimeSeconds, mustRevalidate: caching.mustRevalidate)
        try? await cache.store(entry, for: key)
    }

    /// When the place at `coordinate` was last polled, whatever came of it.
    public func lastPoll(for coordinate: Coordinate) async -> Date? {
        (try? await cache.entry(for: key("poll " + ReportCache.placeKey(coordinate))))?.fetchedAt
    }

    /// Notes a poll of the place at `coordinate` at `instant`.
    public func notePoll(at instant: Date, for coordinate: Coordinate) async {
        try? await cache.store(CacheEntry(fetchedAt: instant, payload: ""), for: key("poll " + ReportCache.placeKey(coordinate)))
    }

    /// The body of the published file at `url`, when it was fetched before.
    public func file(_ url: RequestURL) async -> [UInt8]? {
        (try? await cache.entry(for: key("file " + url.string))).map { Array($0.payload.utf8) }
    }

    /// Keeps the body of the published file at `url` (UTF-8 text; other bodies are not kept).
    public func keepFile(_ url: RequestURL, body: [UInt8], at instant: Date) async {
        guard let text = String(validating: body, as: UTF8.self) else { return }
        try? await cache.store(CacheEntry(fetchedAt: instant, payload: text), for: key("file " + url.string))
    }

    private func key(_ placeKey: String) -> CacheKey { CacheKey(provider: storageKey, slot: .alerts, placeKey: placeKey) }
}

/// A transport that answers a published file (one `isPublished` says never changes) from `AlertCache` when it was fetched
/// before, and keeps it the first time it is fetched whole (status 200); every other request passes through.
public struct PublishedFileTransport: Transport {
    /// The transport underneath.
    public let base: any Transport
    /// Where files are kept.
    public let cache: AlertCache
    /// True for a request of a published file.
    public let isPublished: @Sendable (HTTPRequest) -> Bool
    /// The clock files are stamped with.
    public let time: any TimeSource

    /// Creates the transport.
    public init(base: any Transport, cache: AlertCache, isPublished: @escaping @Sendable (HTTPRequest) -> Bool, time: any TimeSource) {
        self.base = base
        self.cache = cache
        self.isPublished = isPublished
        self.time = time
    }

    /// The kept file, or the base transport's answer (kept when it is a published file's whole body).
    public func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        guard isPublished(request) else { return try await base.send(request) }
        if let body = await cache.file(request.url) { return HTTPResponse(status: 200, headers: [], body: body) }
        let response = try await base.send(request)
        if response.status == 200 { await cache.keepFile(request.url, body: response.body, at: time.now()) }
        return response
    }
}
