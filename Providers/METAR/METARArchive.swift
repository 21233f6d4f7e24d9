import FoundationEssentials
import IsobarCore

extension METARProvider: ObservationArchive {
    /// The Iowa Environmental Mesonet, whose ASOS/METAR archive keeps parsed reports of airports worldwide for decades.
    public static let archiveURL = RequestURL(string: "https://mesonet.agron.iastate.edu")!

    /// The archive asks to be asked gently: at most 10 requests a minute from one machine (each one station and range).
    public var archiveRateLimits: [RateLimit] { [RateLimit(limit: 10, perSeconds: 60)] }

    /// The archive's base URL.
    public var archiveEndpoint: String { "archive=\(configuration.archiveURL.string)" }

    /// The nearest station in range of `place`.
    public func archiveStation(near place: Place) throws(ProviderError) -> String? { try candidates(for: place).first?.station.icao }

    /// One request for one station and one range of whole UTC days (the archive asks to be asked gently: one station and
    /// range per request): `asos.py` with the temperature in °F, comma-separated, `M` for missing, routine reports only.
    public func archiveRequest(station: String, from start: Date, to end: Date) -> HTTPRequest {
        func day(_ date: Date, _ suffix: String) -> [QueryItem] {
            let parts = CivilTime.civil(fromDays: Int((date.timeIntervalSince1970 / 86_400).rounded(.down)))
            return [QueryItem("year" + suffix, String(parts.year)), QueryItem("month" + suffix, String(parts.month)),
                    QueryItem("day" + suffix, String(parts.day))]
        }
        let query = [QueryItem("station", station), QueryItem("data", "tmpf")] + day(start, "1") + day(end, "2") + [
            QueryItem("tz", "Etc/UTC"), QueryItem("format", "onlycomma"), QueryItem("latlon", "no"), QueryItem("missing", "M"),
            QueryItem("direct", "no"), QueryItem("report_type", "3"),
        ]
        return HTTPRequest(url: configuration.archiveURL.appending(path: "/cgi-bin/request/asos.py", query: query), origin: "IEM ASOS archive")
    }

    /// The observations of an `asos.py` answer: a `station,valid,tmpf` header, then one report per line (`valid` as
    /// `yyyy-MM-dd HH:mm` in UTC, `tmpf` in °F or `M`); reports without a temperature are skipped, a line that cannot be
    /// read is a bad response naming its line.
    public func archivedObservations(in response: HTTPResponse, now: Date) throws(ProviderError) -> [WeatherSample] {
        guard (200..<300).contains(response.status) else {
            _ = try CheckedBody(response, provider: "IEM ASOS archive", messageKey: "error", now: now)
            throw ProviderError(.badResponse(path: "$"), "IEM ASOS archive answered \(response.status)")
        }
        let text = String(decoding: response.body, as: UTF8.self)
        var lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).makeIterator()
        guard let header = lines.next()?.split(separator: ",").map({ String($0.filter { $0 != " " }) }),
              let validColumn = header.firstIndex(of: "valid"), let temperatureColumn = header.firstIndex(of: "tmpf") else {
            throw ProviderError(.badResponse(path: "$"), "IEM ASOS archive: the answer has no station,valid,tmpf header")
        }
        var samples: [WeatherSample] = []
        var number = 1
        while let line = lines.next() {
            number += 1
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == header.count else {
                throw ProviderError(.badResponse(path: "$"), "IEM ASOS archive: line \(number) has \(fields.count) fields")
            }
            let reading = String(fields[temperatureColumn].filter { $0 != " " })
            if reading == "M" || reading.isEmpty { continue }
            let valid = String(fields[validColumn].map { $0 == " " ? "T" : $0 })
            guard let time = CivilTime.instant(localISO: valid, utcOffsetSeconds: 0), let fahrenheit = Double(reading),
                  case let celsius = (fahrenheit - 32) * 5 / 9, Quantity.temperature.spec.range.contains(celsius) else {
                throw ProviderError(.badResponse(path: "$"), "IEM ASOS archive: line \(number) is not a time and a temperature in °F")
            }
            var sample = WeatherSample(time: time, periodHours: 0)
            sample.temperatureC = celsius
            samples.append(sample)
        }
        return samples
    }
}
