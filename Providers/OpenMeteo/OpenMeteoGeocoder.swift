import FoundationEssentials
import IsobarCore

/// Open-Meteo's geocoding API: places by name, for names the offline gazetteer does not know.
public struct OpenMeteoGeocoder: Geocoding {
    /// Base URL, `https://geocoding-api.open-meteo.com` unless pointed elsewhere.
    public var baseURL: RequestURL

    /// Creates a geocoder.
    public init(baseURL: RequestURL = RequestURL(string: "https://geocoding-api.open-meteo.com")!) { self.baseURL = baseURL }

    /// The search request: `name` (a `Name, Qualifier` form is passed as it is: the API filters by country or region after a comma).
    public func request(name: String, count: Int) -> HTTPRequest {
        HTTPRequest(url: baseURL.appending(path: "/v1/search", query: [
            QueryItem("name", name), QueryItem("count", String(min(100, max(1, count)))),
            QueryItem("language", "en"), QueryItem("format", "json"),
        ]), origin: "Open-Meteo geocoding")
    }

    /// Places found, best first; no match is an empty list (the API then omits `results`).
    public func decode(_ response: HTTPResponse, now: Date) throws(ProviderError) -> [Place] {
        let body = try CheckedBody(response, provider: "Open-Meteo geocoding", messageKey: "reason", now: now)
        do throws(JSONError) {
            guard let results = try body.root().nonNullMember("results") else { return [] }
            var places: [Place] = []
            for item in try results.elements() {
                guard let coordinate = Coordinate(latitude: try item.double("latitude"), longitude: try item.double("longitude")) else { continue }
                places.append(Place(name: try item.string("name"), adminArea: try item.optionalString("admin1"),
                                    countryCode: try item.optionalString("country_code"), coordinate: coordinate,
                                    timeZoneIdentifier: try item.optionalString("timezone")))
            }
            return places
        } catch {
            throw ProviderError.badResponse(error, provider: "Open-Meteo geocoding")
        }
    }

    /// Caches its answers as `open-meteo`.
    public var id: String { "open-meteo" }

    /// Searches through the context's transport.
    public func search(_ name: String, limit: Int, context: FetchContext) async throws(ProviderError) -> [Place] {
        let response = try await context.transport.send(request(name: name, count: limit))
        return try decode(response, now: context.time.now())
    }
}
