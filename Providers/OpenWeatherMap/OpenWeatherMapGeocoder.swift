import FoundationEssentials
import IsobarCore

/// OpenWeatherMap's geocoding API (`/geo/1.0/direct`): places by name, needing the same key as the weather API.
public struct OpenWeatherMapGeocoder: Geocoding {
    /// Base URL, `https://api.openweathermap.org` unless pointed elsewhere.
    public var baseURL: RequestURL
    /// The API key.
    public var apiKey: String

    /// Creates a geocoder.
    public init(baseURL: RequestURL = RequestURL(string: "https://api.openweathermap.org")!, apiKey: String) {
        self.baseURL = baseURL
        self.apiKey = apiKey
    }

    /// The search request; `City, CC` and `City, ST, US` forms are passed as they are (the API reads them).
    public func request(name: String, limit: Int) -> HTTPRequest {
        HTTPRequest(url: baseURL.appending(path: "/geo/1.0/direct", query: [
            QueryItem("q", name), QueryItem("limit", String(min(5, max(1, limit)))), QueryItem("appid", apiKey),
        ]), secretQueryNames: ["appid"], origin: "OpenWeatherMap geocoding")
    }

    /// Places found, best first; no match is an empty array.
    public func decode(_ response: HTTPResponse, now: Date) throws(ProviderError) -> [Place] {
        let body: CheckedBody
        do {
            body = try CheckedBody(response, provider: "OpenWeatherMap geocoding", messageKey: "message", now: now)
        } catch {
            throw error.redacting([apiKey])
        }
        do throws(JSONError) {
            var places: [Place] = []
            for item in try body.root().elements() {
                guard let coordinate = Coordinate(latitude: try item.double("lat"), longitude: try item.double("lon")) else { continue }
                places.append(Place(name: try item.string("name"), adminArea: try item.optionalString("state"),
                                    countryCode: try item.optionalString("country"), coordinate: coordinate))
            }
            return places
        } catch {
            throw ProviderError.badResponse(error, provider: "OpenWeatherMap geocoding")
        }
    }

    /// Caches its answers as `openweathermap`.
    public var id: String { "openweathermap" }

    /// Searches through the context's transport; no message ever holds the key.
    public func search(_ name: String, limit: Int, context: FetchContext) async throws(ProviderError) -> [Place] {
        do {
            let response = try await context.transport.send(request(name: name, limit: limit))
            return try decode(response, now: context.time.now())
        } catch {
            throw error.redacting([apiKey])
        }
    }
}
