import FoundationEssentials
import IsobarCore

extension OpenMeteoProvider: PastForecasting {
    /// Open-Meteo's Previous Runs API, unless the entry's `previous_runs_url` points elsewhere.
    public static let previousRunsURL = RequestURL(string: "https://previous-runs-api.open-meteo.com")!
    /// The days back a previous run is kept for, as `temperature_2m_previous_day1` … `_previous_day7`.
    public static let previousDays = 1...7

    /// Open-Meteo keeps `past_days` up to 92.
    public var pastDaysLimit: Int { 92 }

    /// One request for every model and every day back: `hourly=temperature_2m_previous_day1,…,_previous_day7` with
    /// `past_days`, in UTC, for the entry's models (Open-Meteo's best match when none).
    public func pastForecastRequest(near place: Place, days: Int) -> HTTPRequest {
        let coordinate = place.coordinate.rounded
        var query = [
            QueryItem("latitude", JSONOutput.format(coordinate.latitude)),
            QueryItem("longitude", JSONOutput.format(coordinate.longitude)),
            QueryItem("hourly", Self.previousDays.map { "temperature_2m_previous_day\($0)" }.joined(separator: ",")),
            QueryItem("past_days", String(min(pastDaysLimit, max(1, days)))),
            QueryItem("forecast_days", "1"),
            QueryItem("timezone", "GMT"),
        ]
        if !configuration.models.isEmpty { query.append(QueryItem("models", configuration.models.joined(separator: ","))) }
        if let key = configuration.apiKey, !key.isEmpty { query.append(QueryItem("apikey", key)) }
        let base = configuration.previousRunsURL ?? Self.previousRunsURL
        return HTTPRequest(url: base.appending(path: "/v1/forecast", query: query), secretQueryNames: ["apikey"], origin: displayName)
    }

    /// Every hour's value of each `_previous_dayN` series, as a forecast issued `N` days before the hour, for each source
    /// (keys end in `_<model>` when more than one model was asked for); null values (runs not kept) are skipped, and a
    /// value outside the physical range is a bad response.
    public func pastForecasts(in response: HTTPResponse, now: Date) throws(ProviderError) -> [PastForecast] {
        let body = try CheckedBody(response, provider: displayName, messageKey: "reason", now: now)
        let reason = body.serverMessage
        let ids = sources.map(\.id)
        let suffixes = configuration.models.count > 1 ? configuration.models.map { "_" + $0 } : [""]
        return try ProviderError.decoding(provider: displayName) {
            let root = try body.root()
            try OpenMeteoEnvelope.checkRefusal(root, provider: displayName, reason: reason)
            let hourly = try root.member("hourly")
            let timeValue = try hourly.member("time")
            let times = try timeValue.stringsOrNulls().enumerated().map { index, text throws(JSONError) -> Date in
                guard let text, let time = CivilTime.instant(localISO: text, utcOffsetSeconds: 0) else {
                    throw JSONError(.typeMismatch(expected: "UTC time yyyy-MM-ddTHH:mm", found: text ?? "null"), path: timeValue.path.appending(index: index))
                }
                return time
            }
            var forecasts: [PastForecast] = []
            for (source, suffix) in zip(ids, suffixes) {
                for day in Self.previousDays {
                    let name = "temperature_2m_previous_day\(day)" + suffix
                    guard let series = try hourly.nonNullMember(name) else { continue }
                    let values = try series.numbersOrNulls()
                    guard values.count == times.count else {
                        throw JSONError(.typeMismatch(expected: "\(times.count) values", found: "\(values.count)"), path: series.path)
                    }
                    for (index, value) in values.enumerated() {
                        guard let value else { continue }
                        guard Quantity.temperature.spec.range.contains(value) else {
                            throw JSONError(.typeMismatch(expected: "a temperature in °C", found: JSONOutput.format(value)),
                                            path: series.path.appending(index: index))
                        }
                        forecasts.append(PastForecast(source: source, issuedAt: times[index].addingTimeInterval(-Double(day) * 86_400),
                                                      validAt: times[index], temperatureC: value))
                    }
                }
            }
            return forecasts
        }
    }
}
