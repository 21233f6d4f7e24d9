import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

/// Both air sources on one loopback server: Open-Meteo says PM2.5 6, 33 and 53 µg/m³ now and in the next two hours,
/// OpenWeatherMap 10, 37 and 57 (its own index 2 now); Minsk's offset, times from the current hour on.
struct AirOrigin {
    let server: LoopbackServer
    /// The first hour (UTC, on the hour).
    let start: Date

    init(openMeteoStatus: Int = 200, pollen: Bool = false) throws {
        // The command's clock runs at the recordings' time (see `recordingTimeShift`).
        let now = Date().addingTimeInterval(Double(recordingTimeShift) ?? 0)
        let start = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
        self.start = start
        let offset = 10_800
        let local = { (hours: Int) in CivilTime.iso(start.addingTimeInterval(Double(hours) * 3600), utcOffsetSeconds: offset).prefix(16) }
        let meteoPM = [6.0, 33, 53]
        let pollenMember = pollen ? #","birch_pollen":[120,80,40]"# : ""
        let meteo = """
        {"latitude":53.9,"longitude":27.56,"utc_offset_seconds":\(offset),"timezone":"Europe/Minsk",
         "current_units":{"time":"iso8601","interval":"seconds","pm2_5":"μg/m³","pm10":"μg/m³","ozone":"ppb"},
         "current":{"time":"\(local(0))","interval":3600,"pm2_5":\(meteoPM[0]),"pm10":12.0,"ozone":30\(pollen ? #","birch_pollen":120"# : "")},
         "hourly_units":{"time":"iso8601","pm2_5":"μg/m³","pm10":"μg/m³","birch_pollen":"grains/m³"},
         "hourly":{"time":["\(local(0))","\(local(1))","\(local(2))"],"pm2_5":[6.0,33.0,53.0],"pm10":[12,40,70]\(pollenMember)}}
        """
        let owmItem = { (hours: Int, pm: Double, aqi: Int) in
            #"{"main":{"aqi":\#(aqi)},"components":{"co":200.3,"no":0.1,"no2":9.5,"o3":61.0,"so2":1.2,"pm2_5":\#(pm),"pm10":14.0,"nh3":0.4},"dt":\#(Int(start.timeIntervalSince1970) + hours * 3600)}"#
        }
        let current = #"{"coord":{"lon":27.56,"lat":53.9},"list":[\#(owmItem(0, 10, 2))]}"#
        let forecast = #"{"coord":{"lon":27.56,"lat":53.9},"list":[\#(owmItem(0, 10, 2)),\#(owmItem(1, 37, 3)),\#(owmItem(2, 57, 4))]}"#
        let json = [("Content-Type", "application/json; charset=utf-8")]
        server = try LoopbackServer { request in
            switch request.path {
            case "/v1/air-quality": .init(status: openMeteoStatus, openMeteoStatus == 200 ? meteo : #"{"error":true,"reason":"busy"}"#, headers: json)
            case "/data/2.5/air_pollution": .init(current, headers: json)
            case "/data/2.5/air_pollution/forecast": .init(forecast, headers: json)
            default: .init(status: 404, #"{"cod":"404","message":"not found"}"#, headers: json)
            }
        }
    }

    /// A configuration whose air sources are both on the server (the key in TEST_OWM_KEY); the weather's are unused.
    func configuration() throws -> String {
        try temporaryConfiguration("""
        {"providers": [{"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)"}],
         "air_providers": [
          {"id": "open-meteo-air", "type": "open-meteo-air", "base_url": "\(server.baseURL)", "domains": "europe"},
          {"id": "openweathermap-air", "type": "openweathermap-air", "api_key_env": "TEST_OWM_KEY", "base_url": "\(server.baseURL)"}
        ]}
        """)
    }
}

@Suite(.tags(.realTime)) struct AirCommandTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    func air(_ origin: AirOrigin, _ extra: [String]) async throws -> CLIRun {
        await runCLI(withRoomyDeadline(["air", "Minsk", "--config", try origin.configuration()] + extra),
                     environment: ["TEST_OWM_KEY": sentinelKey], transport: curl)
    }

    /// The US AQI object of a list of indices.
    func usAQI(_ indices: JSONValue) throws -> JSONValue? {
        try indices.elements().first { try $0.string("scale") == "us_aqi" }
    }

    @Test("the merge of 6 and 10 µg/m³ is 8.0, US AQI 44 Good; the hour at 55 is Unhealthy for Sensitive Groups; OpenWeatherMap's own index is its own")
    func mergedConcentrationsThenIndices() async throws {
        let origin = try AirOrigin()
        let run = try await air(origin, ["--format", "jsonl", "--hourly"])
        #expect(run.code == 0, "\(run.stderr)")
        let lines = try parseLines(run)
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(try line.string("type") == "air")
        let current = try line.member("current")
        #expect(try current.double("pm2_5") == 8.0)
        let index = try #require(try usAQI(current.member("indices")))
        #expect(try index.int("value") == 44 && index.string("category_name") == "Good" && index.string("pollutant") == "pm2_5")
        #expect(try index.string("scale_name") == "US AQI (EPA)")
        let hours = try line.member("hourly").elements()
        let smoky = try #require(try hours.first { try $0.nonNullMember("pm2_5")?.double() == 55 })
        #expect(try usAQI(smoky.member("indices"))?.string("category_name") == "Unhealthy for Sensitive Groups")
        let middle = try #require(try hours.first { try $0.nonNullMember("pm2_5")?.double() == 35 })
        #expect(try usAQI(middle.member("indices"))?.int("value") == 99)
        let sources = try line.member("sources").elements()
        let owm = try #require(try sources.first { try $0.string("provider") == "openweathermap-air" })
        #expect(try owm.member("own_index").double("value") == 2 && owm.member("own_index").string("scale") == "OpenWeatherMap 1–5")
        let meteo = try #require(try sources.first { try $0.string("provider") == "open-meteo-air" })
        #expect(try meteo.member("own_index").isNull)
        // Open-Meteo's ozone came in ppb: 30 ppb is 58.9 µg/m³.
        #expect(abs(try meteo.double("ozone") - 58.896) < 0.01)
        #expect(try line.string("pollen") == "none")
        #expect(!run.stdout.contains(sentinelKey) && !run.stderr.contains(sentinelKey))
        let asked = origin.server.requests.first { $0.path == "/v1/air-quality" }
        #expect(asked?.parameter("domains") == "cams_europe")
    }

    @Test("the table names each scale, shows both sources side by side with the merge, says there is no pollen, and marks the own index")
    func table() async throws {
        let origin = try AirOrigin()
        let run = try await air(origin, [])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("US AQI (EPA): 44 Good (PM2.5)."))
        #expect(run.stdout.contains("European AQI (EEA):"))
        #expect(run.stdout.contains("Open-Meteo Air") && run.stdout.contains("OpenWeatherMap Air") && run.stdout.contains("Merged"))
        #expect(run.stdout.contains("Pollen: no pollen data for this place."))
        #expect(run.stdout.contains("OpenWeatherMap Air's, on its OpenWeatherMap 1–5 scale; shown as given, never merged"))
        #expect(run.stdout.contains("Worst of the next 12 hours: US AQI (EPA) 149 Unhealthy for Sensitive Groups (PM2.5)"))
    }

    @Test("plain sentences carry the category and the publisher's advice; pollen counts are shown where a source gives them")
    func plainWithPollen() async throws {
        let origin = try AirOrigin(pollen: true)
        let run = try await air(origin, ["--plain"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("US AQI (EPA): 44, Good, driven by PM2.5. Air quality is satisfactory"))
        #expect(run.stdout.contains("OpenWeatherMap Air's own index: 2, Fair on its OpenWeatherMap 1–5 scale; not merged."))
        #expect(run.stdout.contains("Pollen (grains per cubic metre): birch 120."))
    }

    @Test("one source failing leaves the other's values and indices, and exits 2")
    func oneSourceFails() async throws {
        let origin = try AirOrigin(openMeteoStatus: 400)
        let run = try await air(origin, ["--format", "jsonl", "--providers", "open-meteo-air,openweathermap-air"])
        #expect(run.code == 2, "\(run.stderr)")
        let line = try #require(try parseLines(run).first)
        #expect(try line.member("current").double("pm2_5") == 10)
        #expect(try usAQI(line.member("current").member("indices"))?.int("value") == 53)
        #expect(try line.member("failures").elements().map { try $0.string("provider") } == ["open-meteo-air"])
    }

    @Test("CSV: a header naming every air quantity with its unit and both scales, then now and each hour")
    func csv() async throws {
        let origin = try AirOrigin()
        let run = try await air(origin, ["--format", "csv", "--hourly"])
        #expect(run.code == 0, "\(run.stderr)")
        let header = try #require(run.lines.first)
        #expect(header.hasPrefix("place,time,kind,pm2_5_µg/m³,pm10_µg/m³"))
        #expect(header.hasSuffix("us_aqi,us_aqi_category,us_aqi_pollutant,european_aqi,european_aqi_category,european_aqi_pollutant"))
        #expect(run.lines.count == 5)
        #expect(run.lines[1].contains(",current,8,") && run.lines[1].contains(",44,Good,pm2_5,"))
    }
}
