import FoundationEssentials
import IsobarCore

/// The files `isobar providers new` writes: a working provider that asks Open-Meteo as an example, with a recorded fixture for
/// Minsk that passes `isobar providers check` as written.
struct ProviderSkeleton {
    /// The language of the skeleton.
    enum Language: String, CaseIterable, Sendable {
        /// An exec plug-in in Python 3 (standard library only).
        case python
        /// An exec plug-in in POSIX shell and jq.
        case sh
        /// A compiled adapter: a SwiftPM target under `Providers/`.
        case swift
    }

    /// One file to write.
    struct File {
        /// Path relative to the skeleton's directory.
        let path: String
        /// Its contents.
        let contents: String
        /// True for the program, which must be executable.
        var executable = false
    }

    /// The provider's id: lower-case letters, digits and hyphens.
    let name: String
    /// Its language.
    let language: Language

    /// `my-source` → `MySource`; a leading digit gets a `Source` prefix, as a Swift name cannot start with one.
    var typeName: String {
        let joined = name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return joined.first?.isNumber == true ? "Source" + joined : joined
    }

    /// The program's file name for the exec languages.
    var programName: String { "isobar-provider-\(name)" }

    /// True for a valid provider name: 1 to 40 of `a-z`, `0-9` and `-`, starting with a letter or digit, not ending with `-`.
    static func isValidName(_ name: String) -> Bool {
        guard (1...40).contains(name.count), name.first != "-", name.last != "-" else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// Every file of the skeleton.
    var files: [File] {
        switch language {
        case .python: [File(path: programName, contents: fill(Self.python), executable: true), fixture]
        case .sh: [File(path: programName, contents: fill(Self.shell), executable: true), fixture]
        case .swift: [File(path: "\(typeName)Provider.swift", contents: fill(Self.swiftProvider)), fixture]
        }
    }

    /// The configuration entry that runs the skeleton from `directory` (absolute), replaying its fixture.
    func entry(directory: String) -> String {
        let replay = JSONOutput.string(directory + "/cassettes").serialized()
        switch language {
        case .python, .sh:
            let command = JSONOutput.array([.string(directory + "/" + programName)]).serialized()
            return #"{"id": "\#(name)", "type": "exec", "command": \#(command), "replay": \#(replay)}"#
        case .swift:
            return #"{"id": "\#(name)", "type": "\#(name)", "replay": \#(replay)}"#
        }
    }

    private func fill(_ template: String) -> String {
        template.replacingAll("{{NAME}}", with: name).replacingAll("{{TYPE}}", with: typeName)
    }

    // MARK: The fixture

    /// When the fixture was recorded: the moment of the bundled demo recordings.
    static let recordedAt = "2026-11-28T09:00:00Z"
    /// The fixture's place: Minsk, the first bundled place.
    static let latitude = "53.9", longitude = "27.5667"
    /// The query every skeleton sends (the Swift one orders its parameters the same way).
    static let query = "latitude=\(latitude)&longitude=\(longitude)"
        + "&current=temperature_2m,relative_humidity_2m,wind_speed_10m,wind_direction_10m&hourly=temperature_2m"
        + "&forecast_days=2&wind_speed_unit=ms&timezone=GMT"

    /// A cassette of one Open-Meteo answer for Minsk: current conditions and 48 hourly temperatures.
    var fixture: File {
        let hours = (0..<48).map { hour in
            let day = 28 + hour / 24  // November 28 and 29
            return "2026-11-\(day)T\(hour % 24 < 10 ? "0" : "")\(hour % 24):00"
        }
        let day = [-2.1, -2.3, -2.4, -2.6, -2.7, -2.8, -2.7, -2.2, -1.4, -0.4, 0.3, 0.8, 1.1, 1.2, 1.0, 0.6, 0.1, -0.4, -0.8, -1.1, -1.3,
                   -1.5, -1.7, -1.9]
        let temperatures = (0..<48).map { hour in day[hour % 24] - (hour >= 24 ? 0.6 : 0) }
        let body = JSONOutput.object([
            ("latitude", .number(53.9)), ("longitude", .number(27.5625)), ("utc_offset_seconds", .integer(0)), ("timezone", .string("GMT")),
            ("current_units", .object([("temperature_2m", .string("°C")), ("relative_humidity_2m", .string("%")),
                                       ("wind_speed_10m", .string("m/s")), ("wind_direction_10m", .string("°"))])),
            ("current", .object([("time", .string("2026-11-28T09:00")), ("interval", .integer(900)), ("temperature_2m", .number(-0.4)),
                                 ("relative_humidity_2m", .integer(96)), ("wind_speed_10m", .number(3.2)), ("wind_direction_10m", .integer(235))])),
            ("hourly_units", .object([("time", .string("iso8601")), ("temperature_2m", .string("°C"))])),
            ("hourly", .object([("time", .array(hours.map { .string($0) })), ("temperature_2m", .array(temperatures.map { .number($0) }))])),
        ]).serialized()
        let cassette = JSONOutput.object([
            ("format", .string("isobar-cassette")), ("version", .integer(1)), ("recorded_at", .string(Self.recordedAt)),
            ("interactions", .array([.object([
                ("request", .object([("method", .string("GET")), ("url", .string("https://api.open-meteo.com/v1/forecast?" + Self.query))])),
                ("response", .object([("status", .integer(200)), ("headers", .array([.array([.string("Content-Type"), .string("application/json")])])),
                                      ("body", .string(body))])),
            ])])),
        ]).serialized()
        return File(path: "cassettes/minsk.json", contents: cassette + "\n")
    }

    // MARK: Templates

    static let python = #"""
    #!/usr/bin/env python3
    """Isobar exec plug-in (protocol 1) "{{NAME}}", written by `isobar providers new`; see docs/plugin-protocol.md.

    Host-mediated HTTP: `plan` returns the requests, Isobar makes them (cache, limits, --record, --replay), `decode` turns the
    responses into a report in SI units. As written it asks Open-Meteo for Minsk-style coordinates; change API_BASE, plan()
    and decode() for your source, then record a new fixture with `isobar compare PLACE --record DIR`.
    """
    import json
    import sys
    from urllib.parse import urlencode

    PROTOCOL = 1
    API_BASE = "https://api.open-meteo.com"


    class PluginError(Exception):
        """An error answer: a protocol code and a message."""

        def __init__(self, code, message):
            super().__init__(message)
            self.code, self.message = code, message


    def describe():
        return {"id": "{{NAME}}", "name": "{{NAME}}", "attribution": "Open-Meteo.com", "licence": "CC BY 4.0",
                "kinds": ["current", "hourly"], "horizon_days": 2, "step_hours": 1,
                "quantities": ["temperature", "humidity", "wind_speed", "wind_direction"],
                "key": None, "rate_limits": [{"limit": 600, "per_s": 60}], "coverage": "global", "mode": "http",
                "fresh_for_s": {"current": 900, "forecast": 3600}}


    def plan(message):
        place = message["request"]["place"]
        query = urlencode([("latitude", place["latitude"]), ("longitude", place["longitude"]),
                           ("current", "temperature_2m,relative_humidity_2m,wind_speed_10m,wind_direction_10m"),
                           ("hourly", "temperature_2m"), ("forecast_days", 2), ("wind_speed_unit", "ms"), ("timezone", "GMT")], safe=",")
        base = (message.get("base_url") or API_BASE).rstrip("/")
        return {"requests": [{"method": "GET", "url": base + "/v1/forecast?" + query}]}


    def decode(message):
        response = message["responses"][0]
        status = response["status"]
        if status == 429:
            raise PluginError("rate_limited", "the server is rate limiting requests")
        if status >= 500:
            raise PluginError("unavailable", "the server is unavailable (HTTP %d)" % status)
        if status != 200:
            raise PluginError("bad_request", "the server refused the request (HTTP %d)" % status)
        body = json.loads(response["body"])
        current, hourly = body["current"], body["hourly"]
        return {"report": {
            "units": "si", "utc_offset_seconds": 0,
            "current": {"time": current["time"] + ":00Z", "temperature_c": current["temperature_2m"],
                        "humidity_percent": current["relative_humidity_2m"], "wind_speed_ms": current["wind_speed_10m"],
                        "wind_direction_deg": current["wind_direction_10m"]},
            "hourly": [{"time": time + ":00Z", "period_hours": 1, "temperature_c": temperature}
                       for time, temperature in zip(hourly["time"], hourly["temperature_2m"])]}}


    def answer(message):
        call = message.get("call")
        if call == "describe":
            return {"describe": describe()}
        if call == "plan":
            return plan(message)
        if call == "decode":
            return decode(message)
        raise PluginError("unsupported", "unknown call %r" % call)


    def main():
        try:
            message = json.loads(sys.stdin.read())
            result = {"protocol": PROTOCOL, "ok": True, **answer(message)}
        except PluginError as error:
            result = {"protocol": PROTOCOL, "ok": False, "error": {"code": error.code, "message": error.message}}
        except (KeyError, IndexError, TypeError, ValueError) as error:
            print("cannot read the answer: %r" % error, file=sys.stderr)
            result = {"protocol": PROTOCOL, "ok": False, "error": {"code": "bad_response", "message": "an answer this plug-in cannot read"}}
        json.dump(result, sys.stdout)
        sys.stdout.write("\n")


    if __name__ == "__main__":
        main()

    """#

    static let shell = #"""
    #!/bin/sh
    # Isobar exec plug-in (protocol 1) "{{NAME}}" in shell and jq, written by `isobar providers new`; see docs/plugin-protocol.md.
    # Host-mediated HTTP: "plan" returns the request, Isobar makes it, "decode" turns the response into an SI report. As written
    # it asks Open-Meteo; change the URL in "plan" and the mapping in "decode" for your source, then record a new fixture with
    # `isobar compare PLACE --record DIR`.
    exec jq -c --arg base https://api.open-meteo.com '{protocol: 1} + if .call == "describe" then {ok: true, describe: {id: "{{NAME}}",
      name: "{{NAME}}", attribution: "Open-Meteo.com", licence: "CC BY 4.0", kinds: ["current", "hourly"], horizon_days: 2, step_hours: 1,
      coverage: "global", quantities: ["temperature", "humidity", "wind_speed", "wind_direction"]}}
    elif .call == "plan" then {ok: true, requests: [{url: "\((.base_url // $base) | rtrimstr("/"))/v1/forecast?latitude=\(.request.place.latitude)&longitude=\(.request.place.longitude)&current=temperature_2m,relative_humidity_2m,wind_speed_10m,wind_direction_10m&hourly=temperature_2m&forecast_days=2&wind_speed_unit=ms&timezone=GMT"}]}
    elif .call == "decode" and .responses[0].status == 200 then (.responses[0].body | fromjson) as $b | {ok: true, report: {units: "si",
      utc_offset_seconds: 0, current: {time: ($b.current.time + ":00Z"), temperature_c: $b.current.temperature_2m,
      humidity_percent: $b.current.relative_humidity_2m, wind_speed_ms: $b.current.wind_speed_10m, wind_direction_deg: $b.current.wind_direction_10m},
      hourly: [range(0; $b.hourly.time | length) as $i | {time: ($b.hourly.time[$i] + ":00Z"), period_hours: 1, temperature_c: $b.hourly.temperature_2m[$i]}]}}
    elif .call == "decode" then .responses[0].status as $s | {ok: false, error: {code: (if $s == 429 then "rate_limited" elif $s >= 500 then "unavailable"
      else "bad_request" end), message: "the server answered HTTP \($s)"}}
    else {ok: false, error: {code: "unsupported", message: "unknown call \(.call)"}} end'

    """#

    static let swiftProvider = #"""
    import FoundationEssentials
    import IsobarCore

    /// "{{NAME}}", written by `isobar providers new`: current conditions and hourly temperatures. As written it asks Open-Meteo;
    /// change `request(for:)` and `decode` for your source, then record a new fixture with `isobar compare PLACE --record DIR`.
    public struct {{TYPE}}Provider: WeatherProvider {
        /// How Isobar builds the provider from a configuration entry of type `{{NAME}}`.
        public static let factory = ProviderFactory(
            type: "{{NAME}}", summary: "{{NAME}}: current and hourly, 2 days; no key", keyVariable: nil,
            make: { context throws(ProviderError) in
                {{TYPE}}Provider(id: context.settings.id, baseURL: context.settings.baseURL ?? defaultBaseURL)
            })

        /// Where the API lives unless the configuration's `base_url` says otherwise.
        public static let defaultBaseURL = RequestURL(string: "https://api.open-meteo.com")!

        /// Configured id.
        public let id: String
        /// The API's base URL.
        public let baseURL: RequestURL
        /// Name for people.
        public var displayName: String { "{{NAME}}" }
        /// What it answers.
        public var capabilities: ProviderCapabilities {
            ProviderCapabilities(kinds: [.current, .hourly], horizonDays: 2, stepHours: 1,
                                 quantities: [.temperature, .humidity, .windSpeed, .windDirection], requiresAPIKey: false, geocoding: false,
                                 rateLimits: [RateLimit(limit: 600, perSeconds: 60)], freshFor: (current: 900, forecast: 3600),
                                 attribution: "Open-Meteo.com (CC BY 4.0)")
        }

        /// A provider asking `baseURL`.
        public init(id: String = "{{NAME}}", baseURL: RequestURL = defaultBaseURL) {
            self.id = id
            self.baseURL = baseURL
        }

        /// The one request for a place (coordinates rounded to 4 decimals).
        public func request(for request: WeatherRequest) -> HTTPRequest {
            let coordinate = request.place.coordinate.rounded
            let query = [
                QueryItem("latitude", JSONOutput.format(coordinate.latitude)), QueryItem("longitude", JSONOutput.format(coordinate.longitude)),
                QueryItem("current", "temperature_2m,relative_humidity_2m,wind_speed_10m,wind_direction_10m"),
                QueryItem("hourly", "temperature_2m"), QueryItem("forecast_days", "2"), QueryItem("wind_speed_unit", "ms"),
                QueryItem("timezone", "GMT"),
            ]
            return HTTPRequest(url: baseURL.appending(path: "/v1/forecast", query: query), origin: displayName)
        }

        /// Asks through the context's transport and decodes the answer.
        public func fetch(_ request: WeatherRequest, context: FetchContext) async throws(ProviderError) -> WeatherReport {
            let now = context.time.now()
            let response = try await context.transport.send(self.request(for: request))
            let body = try CheckedBody(response, provider: displayName, messageKey: "reason", now: now)
            return try ProviderError.decoding(provider: displayName) {
                try decode(body.root(), request: request, now: now)
            }
        }

        private func decode(_ root: JSONValue, request: WeatherRequest, now: Date) throws -> WeatherReport {
            let currentValues = try root.member("current")
            guard let time = CivilTime.instant(localISO: try currentValues.string("time"), utcOffsetSeconds: 0) else {
                throw ProviderError(.badResponse(path: "$.current.time"), "\(displayName): unreadable time")
            }
            var current = WeatherSample(time: time, periodHours: 1)
            current.temperatureC = try currentValues.optionalDouble("temperature_2m")
            current.humidityPercent = try currentValues.optionalDouble("relative_humidity_2m")
            current.windSpeedMS = try currentValues.optionalDouble("wind_speed_10m")
            current.windDirectionDeg = try currentValues.optionalDouble("wind_direction_10m")
            let hourlyValues = try root.member("hourly")
            let times = try hourlyValues.member("time").stringsOrNulls()
            let temperatures = try hourlyValues.member("temperature_2m").numbersOrNulls()
            let hourly = zip(times, temperatures).compactMap { text, temperature -> WeatherSample? in
                guard let text, let time = CivilTime.instant(localISO: text, utcOffsetSeconds: 0) else { return nil }
                var sample = WeatherSample(time: time, periodHours: 1)
                sample.temperatureC = temperature
                return sample
            }
            return WeatherReport(providerID: id, place: request.place, fetchedAt: now, utcOffsetSeconds: 0, current: current, hourly: hourly)
        }
    }

    """#
}
