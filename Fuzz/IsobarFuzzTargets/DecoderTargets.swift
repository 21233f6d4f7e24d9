import FoundationEssentials
import IsobarCore
import Exec
import METNorway
import OpenMeteo
import OpenWeatherMap

/// Response bodies through a provider's decoders, the report they make and its validation, as `fetch` does.
enum DecoderTargets {
    /// The moment the bundled cassettes were recorded, used as "now" so that their bodies decode as they do in replay.
    static let now = Date(timeIntervalSince1970: 1_795_856_400)
    /// The place every report is for.
    static let place = Place(name: "Fuzz", coordinate: Coordinate(latitude: 51.5, longitude: -0.1)!)

    /// A body answered with 200 to every OpenWeatherMap request: current weather, forecast and geocoding.
    static let openWeatherMap = FuzzTarget(name: "openweathermap", summary: "an OpenWeatherMap response body (current, forecast, geocoding)") { bytes in
        let response = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: bytes)
        let geocoded = geocode { () throws(ProviderError) in try OpenWeatherMapGeocoder(apiKey: "k").decode(response, now: now) }
        let decoder = OpenWeatherMapDecoder(units: .metric)
        // The same body as the current-weather answer and as the forecast answer: whichever decodes goes into the report.
        let current = Result { () throws(ProviderError) in try decoder.current(response, now: now) }
        let forecast = Result { () throws(ProviderError) in try decoder.forecast(response, now: now) }
        var report = WeatherReport(providerID: "openweathermap", place: place, fetchedAt: now)
        switch (current, forecast) {
        case (.failure(let error), .failure):
            if case .violated = geocoded { return geocoded }
            return FuzzTarget.refusal(error.message)
        default:
            if case .success(let decoded) = current {
                report.current = decoded.sample
                report.utcOffsetSeconds = decoded.utcOffsetSeconds
                report.warnings = decoded.warnings
            }
            if case .success(let decoded) = forecast {
                report.hourly = decoded.steps
                report.utcOffsetSeconds = report.utcOffsetSeconds ?? decoded.utcOffsetSeconds
                report.warnings += decoded.warnings
            }
            // The decoder that refused still owes a one-line message.
            for case .failure(let error) in [current.map { _ in () }, forecast.map { _ in () }] {
                if case .violated(let problem) = FuzzTarget.refusal(error.message) { return .violated(problem) }
            }
            return ReportInvariants.check(report.validated(now: now), also: geocoded)
        }
    }

    /// A body answered with 200 to every Open-Meteo request: forecast and geocoding.
    static let openMeteo = FuzzTarget(name: "open-meteo", summary: "an Open-Meteo response body (forecast, geocoding)") { bytes in
        let response = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: bytes)
        let geocoded = geocode { () throws(ProviderError) in try OpenMeteoGeocoder().decode(response, now: now) }
        do throws(ProviderError) {
            let decoded = try OpenMeteoDecoder().decode(response, now: now)
            var report = WeatherReport(
                providerID: "open-meteo", place: place, fetchedAt: now, utcOffsetSeconds: decoded.utcOffsetSeconds,
                timeZoneIdentifier: decoded.timeZoneIdentifier, current: decoded.current, hourly: decoded.hourly, daily: decoded.daily)
            report.warnings = decoded.warnings
            return ReportInvariants.check(report.validated(now: now), also: geocoded)
        } catch {
            if case .violated = geocoded { return geocoded }
            return FuzzTarget.refusal(error.message)
        }
    }

    /// The geocoder's answer to the same body: its places, or its refusal.
    private static func geocode(_ decode: () throws(ProviderError) -> [Place]) -> FuzzOutcome {
        do throws(ProviderError) {
            let places = try decode()
            for found in places where Coordinate(latitude: found.coordinate.latitude, longitude: found.coordinate.longitude) == nil {
                return .violated("a geocoded place has an impossible coordinate")
            }
            return .accepted("\(places.count) places")
        } catch {
            return FuzzTarget.refusal(error.message)
        }
    }
}

extension DecoderTargets {
    /// A body answered with 200 to a MET Norway Locationforecast request.
    static let metNorway = FuzzTarget(name: "met-norway", summary: "a MET Norway Locationforecast compact body") { bytes in
        let response = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: bytes)
        do throws(ProviderError) {
            let decoded = try METNorwayDecoder().decode(response, now: now)
            var report = WeatherReport(providerID: "met-norway", place: place, fetchedAt: now, hourly: decoded.steps)
            report.warnings = decoded.warnings
            return ReportInvariants.check(report.validated(now: now), also: .accepted(""))
        } catch {
            return FuzzTarget.refusal(error.message)
        }
    }

    /// A plug-in program's answer to `decode` or `fetch`, read by the host's strict report reader.
    static let execReport = FuzzTarget(name: "exec-report", summary: "an exec plug-in's answer holding a report") { bytes in
        do throws(ProviderError) {
            let answer: JSONValue
            do throws(JSONError) {
                answer = try JSONDocument(parsing: bytes, rejectingDuplicateKeys: true).rootValue
            } catch {
                throw ProviderError.badResponse(error, provider: "Fuzz")
            }
            let report = try ExecReportReader(providerID: "fuzz").read(answer, request: WeatherRequest(place: place), now: now)
            return ReportInvariants.check(report.validated(now: now), also: .accepted(""))
        } catch {
            return FuzzTarget.refusal(error.message)
        }
    }
}
