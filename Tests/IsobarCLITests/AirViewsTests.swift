import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Testing

/// `compare` with air sources and `batch --kind air`: the weather replayed from the demo's Minsk recording, the air sources
/// on a loopback server (PM2.5 6 and 10 µg/m³ now).
@Suite(.tags(.realTime)) struct AirViewsTests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }

    /// The demo's Open-Meteo recording for the weather, and `air` as the air sources (none: the member left out).
    func configuration(air origin: AirOrigin?) throws -> String {
        let weather = #"{"id": "open-meteo", "type": "open-meteo", "models": ["ecmwf_ifs025", "gfs_seamless", "icon_seamless"], "replay": "\#(dataDirectory)/cassettes/open-meteo"}"#
        guard let origin else { return try temporaryConfiguration(#"{"providers": [\#(weather)]}"#) }
        return try temporaryConfiguration("""
        {"providers": [\(weather)],
         "air_providers": [
          {"id": "open-meteo-air", "type": "open-meteo-air", "base_url": "\(origin.server.baseURL)", "domains": "europe"},
          {"id": "openweathermap-air", "type": "openweathermap-air", "api_key_env": "TEST_OWM_KEY", "base_url": "\(origin.server.baseURL)"}
        ]}
        """)
    }

    func run(_ arguments: [String], _ configuration: String) async -> CLIRun {
        await runCLI(arguments + ["--config", configuration], environment: ["TEST_OWM_KEY": sentinelKey], transport: curl)
    }

    @Test("compare shows a row per pollutant (each source, merged, spread), the indices of the merge and the own index, after the weather")
    func compareTable() async throws {
        let origin = try AirOrigin()
        let run = await run(["compare", "Minsk"], try configuration(air: origin))
        #expect(run.code == 0, "\(run.stderr)")
        let text = run.stdout
        let weather = try #require(text.range(of: "Humidity"))
        let air = try #require(text.range(of: "Air now"))
        #expect(weather.lowerBound < air.lowerBound)
        let pm = try #require(run.lines.first { $0.hasPrefix("PM2.5 µg/m³") })
        #expect(pm.split(separator: " ", omittingEmptySubsequences: true).suffix(4) == ["6.0", "10.0", "8.0", "4.0"])
        #expect(run.lines.contains { $0.hasPrefix("US AQI") && $0.contains("44 Good (PM2.5)") })
        #expect(run.lines.contains { $0.hasPrefix("EAQI") })
        let own = try #require(run.lines.first { $0.hasPrefix("Own index") })
        #expect(own.contains("–") && own.contains("2 Fair"))
        #expect(text.contains("shown as given, never merged"))
        #expect(!text.contains(sentinelKey) && !run.stderr.contains(sentinelKey))
    }

    @Test("compare's JSON lines end with an air_comparison line: the merge with its indices, how each quantity was merged, the own index")
    func compareLines() async throws {
        let origin = try AirOrigin()
        let run = await run(["compare", "Minsk", "--format", "jsonl"], try configuration(air: origin))
        #expect(run.code == 0, "\(run.stderr)")
        let lines = try parseLines(run)
        #expect(try lines.map { try $0.string("type") }.suffix(2) == ["consensus", "air_comparison"])
        let air = try #require(lines.last)
        #expect(try air.member("current").double("pm2_5") == 8)
        let us = try #require(try air.member("current").member("indices").elements().first { try $0.string("scale") == "us_aqi" })
        #expect(try us.int("value") == 44 && us.string("category_name") == "Good")
        let pm = try air.member("merged").member("pm2_5")
        #expect(try pm.double("spread") == 4 && pm.member("inputs").elements().count == 2)
        #expect(try pm.member("outliers").elements().isEmpty)
        let owm = try #require(try air.member("sources").elements().first { try $0.string("provider") == "openweathermap-air" })
        #expect(try owm.member("own_index").double("value") == 2)
        // A quantity no source gave is not in `merged`.
        #expect(try air.member("merged").nonNullMember("birch_pollen") == nil)
    }

    @Test("compare's CSV gains the air columns, every row as wide as the header, the sources' and the merge's rows of kind air")
    func compareCSV() async throws {
        let origin = try AirOrigin()
        let run = await run(["compare", "Minsk", "--format", "csv"], try configuration(air: origin))
        #expect(run.code == 0, "\(run.stderr)")
        let header = try #require(run.lines.first).split(separator: ",", omittingEmptySubsequences: false)
        #expect(header.contains("pm2_5_µg_m³") && header.contains("us_aqi") && header.last == "own_index_scale")
        for line in run.lines { #expect(line.split(separator: ",", omittingEmptySubsequences: false).count == header.count, "\(line)") }
        let pm = try #require(header.firstIndex { $0 == "pm2_5_µg_m³" })
        let us = try #require(header.firstIndex { $0 == "us_aqi" })
        let own = try #require(header.firstIndex { $0 == "own_index" })
        let merged = try #require(run.lines.first { $0.contains(",consensus,,air,") }).split(separator: ",", omittingEmptySubsequences: false)
        #expect(merged[pm] == "8" && merged[us] == "44")
        let owm = try #require(run.lines.first { $0.contains(",openweathermap-air,ok,air,") }).split(separator: ",", omittingEmptySubsequences: false)
        #expect(owm[pm] == "10" && owm[own] == "2")
    }

    @Test("with no air source configured, or none answering, compare writes exactly what it wrote before", arguments: ["table", "jsonl", "csv"])
    func noAirNoChange(format: String) async throws {
        let without = await run(["compare", "Minsk", "--format", format], try configuration(air: nil))
        #expect(without.code == 0, "\(without.stderr)")
        #expect(!without.stdout.contains("Air now") && !without.stdout.contains("air_comparison") && !without.stdout.contains("pm2_5"))
        // Open-Meteo refuses, and OpenWeatherMap has no key.
        let origin = try AirOrigin(openMeteoStatus: 400)
        let failing = await runCLI(["compare", "Minsk", "--format", format, "--config", try configuration(air: origin)], transport: curl)
        #expect(failing.stdout == without.stdout)
        #expect(failing.code == 0, "\(failing.stderr)")
    }

    @Test("batch --kind air writes each place's air line with its input line and id, bad lines as input errors, then the summary")
    func batchAirLines() async throws {
        let origin = try AirOrigin()
        let input = try batchInput("Minsk\n{\"id\": \"depot-7\", \"latitude\": 53.9, \"longitude\": 27.56}\nXyzzy Qwertyville\n")
        let run = await run(["batch", input, "--kind", "air", "--order", "input", "--days", "1"], try configuration(air: origin))
        #expect(run.code == 2, "\(run.stderr)")
        let lines = try parseLines(run)
        #expect(try lines.map { try $0.string("type") } == ["air", "air", "input_error", "summary"])
        #expect(try lines[0].int("input_line") == 1 && lines[0].nonNullMember("id") == nil)
        #expect(try lines[1].int("input_line") == 2 && lines[1].string("id") == "depot-7")
        for line in lines.prefix(2) {
            #expect(try line.member("current").double("pm2_5") == 8)
            #expect(try line.member("hourly").elements().count == 3)
        }
        #expect(try lines[2].int("input_line") == 3)
        #expect(try lines[3].int("places") == 2 && lines[3].int("ok") == 2 && lines[3].int("input_errors") == 1)
        #expect(!run.stdout.contains(sentinelKey) && !run.stderr.contains(sentinelKey))
    }

    @Test("batch --kind air --format csv: the air columns between the input line and id and the error, a bad line's code last")
    func batchAirCSV() async throws {
        let origin = try AirOrigin()
        let input = try batchInput("Minsk\nXyzzy Qwertyville\n")
        let run = await run(["batch", input, "--kind", "air", "--order", "input", "--format", "csv"], try configuration(air: origin))
        #expect(run.code == 2, "\(run.stderr)")
        let header = try #require(run.lines.first)
        #expect(header.hasPrefix("input_line,id,place,time,kind,pm2_5_µg/m³") && header.hasSuffix(",error"))
        #expect(run.lines.count == 3)
        #expect(run.lines[1].hasPrefix("1,,\"Minsk, BY\",") && run.lines[1].contains(",current,8,") && run.lines[1].hasSuffix(","))
        #expect(run.lines[2].hasPrefix("2,,,,input_error,") && run.lines[2].hasSuffix(",unknown_place"))
        let width = header.split(separator: ",", omittingEmptySubsequences: false).count
        #expect(run.lines[2].split(separator: ",", omittingEmptySubsequences: false).count == width)
    }

    @Test("an unknown --kind is a one-line usage error naming the kinds, exit 64")
    func unknownKind() async throws {
        let run = await runCLI(["batch", try batchInput("Minsk\n"), "--kind", "smoke", "--demo"])
        #expect(run.code == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "isobar: invalid value 'smoke' for --kind: expected current, hourly, daily, air\n")
    }

    @Test("air --chart draws the merged PM2.5 over the hours with each hour's US AQI category level under it; ASCII in a C locale")
    func chart() async throws {
        let origin = try AirOrigin()
        let run = await runCLI(["air", "Minsk", "--chart", "--config", try origin.configuration()],
                               environment: ["TEST_OWM_KEY": sentinelKey, "LANG": "C", "COLUMNS": "80"], transport: curl)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Next 3 hours in UTC+03:00: PM2.5 ug/m3 (* merged, : range of the sources)"))
        let row = try #require(run.lines.first { $0.hasPrefix("  AQI |") }).dropFirst("  AQI |".count)
        // 8 µg/m³ is Good (1), 35 Moderate (2), 55 Unhealthy for Sensitive Groups (3), in the hours' order.
        #expect(String(row.reduce(into: "") { text, digit in if text.last != digit { text.append(digit) } }) == "123")
        #expect(run.stdout.unicodeScalars.allSatisfy { $0.isASCII })
    }

    @Test("air --chart is for tables: with --plain or JSON lines it is a usage error, exit 64")
    func chartIsForTables() async throws {
        for extra in [["--plain"], ["--format", "jsonl"]] {
            let run = await runCLI(["air", "Minsk", "--demo", "--chart"] + extra)
            #expect(run.code == 64, "\(extra)")
            #expect(run.stdout.isEmpty && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        }
    }
}
