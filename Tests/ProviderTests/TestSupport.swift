import FoundationEssentials
import IsobarCore
import Testing

/// The bundled cassettes under `config/cassettes`, found from this file's path.
enum Fixtures {
    /// The package root: this file is `<root>/Tests/ProviderTests/TestSupport.swift`.
    static let packageRoot: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// `config/cassettes/<provider>`.
    static func cassetteDirectory(_ provider: String) -> String { "\(packageRoot)/config/cassettes/\(provider)" }

    /// `recorded_at` of every bundled cassette: 2026-11-28T09:00:00Z.
    static let recordedAt = Date(timeIntervalSince1970: 1_795_856_400)

    /// The API key used wherever one is configured; it must never show up in messages or redacted URLs.
    static let sentinelKey = "SENTINEL-KEY-7f3a"

    /// The six bundled places, with the coordinates the cassettes were recorded for.
    static let places: [BundledPlace] = [
        BundledPlace("london", "London", "GB", 51.5085, -0.1257, offset: 0, zone: "Europe/London"),
        BundledPlace("minsk", "Minsk", "BY", 53.9, 27.5667, offset: 10_800, zone: "Europe/Minsk"),
        BundledPlace("moscow", "Moscow", "RU", 55.7558, 37.6173, offset: 10_800, zone: "Europe/Moscow"),
        BundledPlace("new-york", "New York", "US", 40.7143, -74.006, offset: -18_000, zone: "America/New_York"),
        BundledPlace("sao-paulo", "São Paulo", "BR", -23.5475, -46.6361, offset: -10_800, zone: "America/Sao_Paulo"),
        BundledPlace("tokyo", "Tokyo", "JP", 35.6895, 139.6917, offset: 32_400, zone: "Asia/Tokyo"),
    ]

    /// The bundled place with the given slug.
    static func place(_ slug: String) throws -> BundledPlace {
        try #require(places.first { $0.slug == slug }, "no bundled place \(slug)")
    }

    /// The bytes of a cassette file.
    static func cassetteBytes(_ provider: String, _ slug: String) throws -> [UInt8] {
        let path = "\(cassetteDirectory(provider))/\(slug).json"
        let data = try #require(FileManager.default.contents(atPath: path), "cannot read \(path)")
        return Array(data)
    }

    /// The recorded body text of the interaction whose URL contains `urlPart`, read straight from the cassette file.
    static func bodyText(_ provider: String, _ slug: String, urlContaining urlPart: String) throws -> String {
        let root = try JSONDocument(parsing: cassetteBytes(provider, slug)).rootValue
        for interaction in try root.member("interactions").elements() {
            if try interaction.member("request").string("url").contains(urlPart) {
                return try interaction.member("response").string("body")
            }
        }
        Issue.record("no interaction with \(urlPart) in \(provider)/\(slug)")
        throw FixtureMissing()
    }

    /// The parsed recorded body of the interaction whose URL contains `urlPart`.
    static func body(_ provider: String, _ slug: String, urlContaining urlPart: String) throws -> JSONValue {
        try JSONDocument(parsing: bodyText(provider, slug, urlContaining: urlPart)).rootValue
    }
}

struct FixtureMissing: Error {}

/// One bundled place and what its cassettes say about its zone.
struct BundledPlace: Sendable, CustomTestStringConvertible {
    let slug: String
    let place: Place
    let utcOffsetSeconds: Int
    let timeZone: String

    init(_ slug: String, _ name: String, _ country: String, _ latitude: Double, _ longitude: Double, offset: Int, zone: String) {
        self.slug = slug
        place = Place(name: name, countryCode: country, coordinate: Coordinate(latitude: latitude, longitude: longitude)!)
        utcOffsetSeconds = offset
        timeZone = zone
    }

    var testDescription: String { slug }
}

/// A response with a UTF-8 body.
func response(_ status: Int, _ body: String, headers: [HTTPHeader] = []) -> HTTPResponse {
    HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
}

/// The `ProviderError` that `body` throws, or nil when it succeeds; any other error is recorded as an issue.
func caught<T>(_ body: () throws -> T) -> ProviderError? {
    do {
        _ = try body()
        return nil
    } catch let error as ProviderError {
        return error
    } catch {
        Issue.record("expected a ProviderError, got \(error)")
        return nil
    }
}

/// The `ProviderError` that an async `body` throws, or nil when it succeeds; any other error is recorded as an issue.
func caughtAsync<T>(_ body: () async throws -> T) async -> ProviderError? {
    do {
        _ = try await body()
        return nil
    } catch let error as ProviderError {
        return error
    } catch {
        Issue.record("expected a ProviderError, got \(error)")
        return nil
    }
}

/// True when `value` is present and within `tolerance` of `expected`.
func isClose(_ value: Double?, _ expected: Double, within tolerance: Double = 1e-9) -> Bool {
    guard let value else { return false }
    return abs(value - expected) <= tolerance
}
