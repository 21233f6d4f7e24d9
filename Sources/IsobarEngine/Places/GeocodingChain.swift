import FoundationEssentials
import IsobarCore

/// Geocoding answers kept between runs, by geocoder and folded query.
public protocol GeocodingCache: Sendable {
    /// The places found for `query` by `geocoder`, and when, if cached.
    func places(geocoder: String, query: String) async throws(StorageError) -> (fetchedAt: Date, places: [Place])?
    /// Keeps the places found for `query` by `geocoder`.
    func store(_ places: [Place], geocoder: String, query: String, fetchedAt: Date) async throws(StorageError)
}

/// What a geocoding chain found: the best place, others it could be, and which geocoder said so.
public struct GeocodingResult: Sendable, Equatable {
    /// The best match.
    public var place: Place
    /// Other matches, best first.
    public var runnersUp: [Place]
    /// The geocoder's id.
    public var source: String

    /// Creates a result.
    public init(place: Place, runnersUp: [Place], source: String) {
        self.place = place
        self.runnersUp = runnersUp
        self.source = source
    }
}

/// Asks the configured geocoders in turn, first from the cache (answers kept 30 days), until one knows the name.
public struct GeocodingChain: Sendable {
    /// The geocoders, in the configuration's order.
    public let geocoders: [any Geocoding]
    /// Where answers are kept; nil for none.
    public let cache: (any GeocodingCache)?
    /// Seconds a cached answer is used.
    public let maxAgeSeconds: Double
    /// Where cache failures go.
    public let diagnostics: any DiagnosticSink

    /// A chain over `geocoders`.
    public init(geocoders: [any Geocoding], cache: (any GeocodingCache)?, maxAgeSeconds: Double = 30 * 86_400,
                diagnostics: any DiagnosticSink = DiagnosticLog()) {
        self.geocoders = geocoders
        self.cache = cache
        self.maxAgeSeconds = maxAgeSeconds
        self.diagnostics = diagnostics
    }

    /// The first geocoder's non-empty answer for `name` (`query` is its folded form, the cache key); failures go to `warn`.
    public func resolve(_ name: String, query: String, limit: Int = 5, context: FetchContext,
                        warn: @Sendable (String) -> Void) async -> GeocodingResult? {
        let now = context.time.now()
        for geocoder in geocoders {
            if let cached = await cached(geocoder.cacheKey, query), now.timeIntervalSince(cached.fetchedAt) < maxAgeSeconds {
                guard let first = cached.places.first else { continue }
                return GeocodingResult(place: first, runnersUp: Array(cached.places.dropFirst().prefix(limit - 1)), source: geocoder.id)
            }
            do {
                let places = try await geocoder.search(name, limit: limit, context: context)
                await keep(places, geocoder.cacheKey, query, now)
                if let first = places.first { return GeocodingResult(place: first, runnersUp: Array(places.dropFirst()), source: geocoder.id) }
            } catch {
                warn("geocoding '\(name)' with \(geocoder.id) failed: \(error.message)")
            }
        }
        return nil
    }

    private func cached(_ geocoder: String, _ query: String) async -> (fetchedAt: Date, places: [Place])? {
        guard let cache else { return nil }
        do {
            return try await cache.places(geocoder: geocoder, query: query)
        } catch {
            diagnostics.report(Diagnostic(.cache, "cannot read a cached geocoding answer: \(error.message)"))
            return nil
        }
    }

    private func keep(_ places: [Place], _ geocoder: String, _ query: String, _ now: Date) async {
        guard let cache else { return }
        do {
            try await cache.store(places, geocoder: geocoder, query: query, fetchedAt: now)
        } catch {
            diagnostics.report(Diagnostic(.cache, "cannot keep a geocoding answer: \(error.message)"))
        }
    }
}
