import Foundation
@testable import IsobarCLI
import IsobarCore
@testable import IsobarRender
import Testing

/// Splits RFC 4180 text into records of fields (quoted fields may hold commas, quotes and line breaks).
func parseCSV(_ text: String) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var quoted = false
    var characters = Array(text)[...]
    while let character = characters.popFirst() {
        if quoted {
            if character == "\"" {
                if characters.first == "\"" { field.append("\""); characters.removeFirst() } else { quoted = false }
            } else {
                field.append(character)
            }
        } else if character == "\"" {
            quoted = true
        } else if character == "," {
            record.append(field)
            field = ""
        } else if character == "\n" {
            records.append(record + [field])
            record = []
            field = ""
        } else {
            field.append(character)
        }
    }
    if !field.isEmpty || !record.isEmpty { records.append(record + [field]) }
    return records
}

/// A CSV output as rows keyed by column name.
private func table(_ run: CLIRun) throws -> (header: [String], rows: [[String: String]]) {
    let records = parseCSV(run.stdout)
    let header = try #require(records.first)
    for record in records { #expect(record.count == header.count, "\(record)") }
    return (header, records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) })
}

@Suite struct CSVOutputTests {
    @Test func compareHasOneRowPerSourceWithTheJSONNumbers() async throws {
        // Open-Meteo's best match: one source.
        let run = await runCLI(["compare", "Minsk", "--config", bestMatchDemoConfig, "--format", "csv", "--providers", "openweathermap,open-meteo"])
        #expect(run.code == 0, "\(run.stderr)")
        let (header, rows) = try table(run)
        #expect(header.prefix(11) == ["place", "admin_area", "country_code", "latitude", "longitude", "source", "status", "kind", "date", "time", "condition"])
        #expect(header.contains("temperature_c") && header.contains("wind_speed_m_s") && header.contains("humidity_pct"))
        #expect(rows.map { $0["source"] }.sorted { ($0 ?? "") < ($1 ?? "") } == ["consensus", "open-meteo", "openweathermap"])
        let json = try parseLines(await runCLI(["compare", "Minsk", "--config", bestMatchDemoConfig, "--json", "--providers", "openweathermap,open-meteo"]))
        for line in json where try line.string("type") != "provider_error" {
            let source = try line.string("type") == "consensus" ? "consensus" : try line.string("provider")
            let row = try #require(rows.first { $0["source"] == source })
            let current = try line.member("current")
            #expect(Double(row["temperature_c"] ?? "") == (try current.double("temperature")), "\(source)")
            #expect(Double(row["pressure_hpa"] ?? "") == (try current.double("pressure")), "\(source)")
            #expect(row["time"] == (try current.string("time")))
            #expect(row["kind"] == "current" && row["place"] == "Minsk" && row["country_code"] == "BY")
        }
        let consensus = try #require(rows.first { $0["source"] == "consensus" })
        #expect(consensus["status"] == "" && consensus["confidence"] == "0.643")
        // Nulls are empty cells: OpenWeatherMap gives no precipitation probability.
        #expect(rows.first { $0["source"] == "openweathermap" }?["precipitation_probability_pct"] == "")
    }

    @Test func theConsensusDaysSayTheMoonsPhase() async throws {
        let (header, rows) = try table(await runCLI(["forecast", "Minsk", "--demo", "--format", "csv", "--days", "2"]))
        let moon = try #require(header.firstIndex(of: "moon_phase"))
        #expect(Array(header[moon..<moon + 4]) == ["moon_phase", "moon_phase_name", "confidence", "error"])
        let days = rows.filter { $0["source"] == "consensus" && $0["kind"] == "daily" }
        #expect(days.count == 2)
        // 2026-11-28: four days after the full moon of 24 November, waning.
        #expect(days.allSatisfy { $0["moon_phase_name"] == "waning gibbous" && (Double($0["moon_phase"] ?? "") ?? 0) > 0.5 })
        #expect(rows.filter { $0["source"] != "consensus" }.allSatisfy { $0["moon_phase"] == "" && $0["moon_phase_name"] == "" })
    }

    @Test func imperialUnitsRenameTheColumns() async throws {
        let (header, rows) = try table(await runCLI(["now", "Minsk", "--demo", "--format", "csv", "--units", "imperial"]))
        for name in ["temperature_f", "pressure_inhg", "wind_speed_mph", "visibility_mi", "precipitation_in", "temperature_max_f"] {
            #expect(header.contains(name), "\(name) missing")
        }
        #expect(!header.contains("temperature_c"))
        let metric = try table(await runCLI(["now", "Minsk", "--demo", "--format", "csv"])).rows
        let celsius = try #require(Double(metric.first { $0["source"] == "open-meteo/gfs_seamless" }?["temperature_c"] ?? ""))
        let fahrenheit = try #require(Double(rows.first { $0["source"] == "open-meteo/gfs_seamless" }?["temperature_f"] ?? ""))
        #expect(abs(fahrenheit - (celsius * 9 / 5 + 32)) < 0.001)
        #expect(try table(await runCLI(["now", "Minsk", "--demo", "--format", "csv", "--units", "standard"])).header.contains("temperature_k"))
    }

    @Test func forecastHasOneRowPerSourceAndTime() async throws {
        let run = await runCLI(["forecast", "Minsk", "--demo", "--format", "csv", "--hourly", "--days", "2"])
        #expect(run.code == 0, "\(run.stderr)")
        let rows = try table(run).rows
        let keys = rows.map { [$0["source"] ?? "", $0["kind"] ?? "", $0["date"] ?? "", $0["time"] ?? ""] }
        #expect(Set(keys).count == keys.count, "a source has two rows for one time")
        // Every source's rows are days and hours; the NWS plug-in, outside its coverage in Minsk, is one skipped row.
        #expect(Set(rows.filter { $0["source"] != "nws" }.compactMap { $0["kind"] }) == ["daily", "hourly"])
        #expect(rows.filter { $0["source"] == "nws" }.map { $0["status"] } == ["skipped"])
        let consensus = try parseLines(await runCLI(["forecast", "Minsk", "--demo", "--json", "--hourly", "--days", "2"])).last
        let hours = try #require(consensus).member("hourly").count()
        let days = try #require(consensus).member("daily").count()
        #expect(rows.filter { $0["source"] == "consensus" && $0["kind"] == "hourly" }.count == hours)
        #expect(rows.filter { $0["source"] == "consensus" && $0["kind"] == "daily" }.count == days)
        for row in rows where row["kind"] == "daily" { #expect(row["time"] == "" && row["temperature_max_c"] != "" && row["temperature_c"] == "") }
        for row in rows where row["kind"] == "hourly" { #expect(row["time"]?.hasPrefix(row["date"] ?? "-") == true) }
    }

    @Test func aFailedProviderIsARowWithItsErrorCode() async throws {
        let run = await runCLI(["now", "Paris", "--demo", "--format", "csv", "--providers", "openweathermap,open-meteo"])
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        let rows = try table(run).rows
        #expect(rows.count == 2)
        for row in rows { #expect(row["status"] == "error" && row["error"] == "unavailable" && row["time"] == "" && row["temperature_c"] == "") }
    }

    @Test func theConsensusRowsCarryEachQuantitysIntervalAfterTheOtherColumns() async throws {
        let (header, rows) = try table(await runCLI(["forecast", "Minsk", "--demo", "--format", "csv", "--days", "1", "--hourly", "--weights", "auto"]))
        // The columns before stay where they were; the interval's follow `error`, the basis last.
        let error = try #require(header.firstIndex(of: "error"))
        #expect(Array(header[error + 1..<error + 3]) == ["temperature_low80_c", "temperature_high80_c"])
        #expect(header.last == "interval_basis")
        for name in ["wind_speed_low80_m_s", "pressure_high80_hpa", "temperature_max_low80_c", "precipitation_sum_high80_mm"] {
            #expect(header.contains(name), "\(name) missing")
        }
        #expect(!header.contains("wind_direction_low80_deg") && !header.contains("sunrise_low80_iso8601"), "directions and sun times have none")
        let json = try #require(try parseLines(await runCLI(["forecast", "Minsk", "--demo", "--json", "--days", "1", "--hourly", "--weights", "auto"])).last)
        let firstHour = try #require(try json.member("hourly").elements().first)
        let interval = try firstHour.member("merged").member("temperature").member("interval_80").elements().map { try $0.double() }
        let hour = try #require(rows.first { $0["source"] == "consensus" && $0["kind"] == "hourly" && $0["time"] == (try? firstHour.string("time")) })
        #expect([Double(hour["temperature_low80_c"] ?? ""), Double(hour["temperature_high80_c"] ?? "")] == interval.map { Optional($0) })
        // The demo history gives hourly quantities it verifies a record-based interval, the others the spread's: "mixed".
        #expect(hour["interval_basis"] == "mixed" && hour["temperature_max_low80_c"] == "")
        let day = try #require(rows.first { $0["source"] == "consensus" && $0["kind"] == "daily" })
        let low = try #require(Double(day["temperature_max_low80_c"] ?? "")), high = try #require(Double(day["temperature_max_high80_c"] ?? ""))
        let maximum = try #require(Double(day["temperature_max_c"] ?? ""))
        #expect(low < maximum && maximum < high && day["interval_basis"] == "spread" && day["temperature_low80_c"] == "")
        // Providers' rows and a skipped provider's have none.
        #expect(rows.filter { $0["source"] != "consensus" }.allSatisfy { $0["temperature_low80_c"] == "" && $0["interval_basis"] == "" })
        #expect(rows.first { $0["source"] == "nws" }?["error"] == "unsupported")
    }

    @Test func intervalColumnsFollowTheUnits() async throws {
        let metric = try table(await runCLI(["now", "Minsk", "--demo", "--format", "csv", "--weights", "auto"])).rows
        let (header, rows) = try table(await runCLI(["now", "Minsk", "--demo", "--format", "csv", "--units", "imperial", "--weights", "auto"]))
        for name in ["temperature_low80_f", "temperature_high80_f", "wind_speed_low80_mph", "pressure_low80_inhg", "visibility_high80_mi",
                     "precipitation_sum_low80_in", "temperature_max_high80_f"] {
            #expect(header.contains(name), "\(name) missing")
        }
        #expect(!header.contains("temperature_low80_c"))
        let celsius = try #require(Double(metric.first { $0["source"] == "consensus" }?["temperature_low80_c"] ?? ""))
        let fahrenheit = try #require(Double(rows.first { $0["source"] == "consensus" }?["temperature_low80_f"] ?? ""))
        #expect(abs(fahrenheit - (celsius * 9 / 5 + 32)) < 0.01)
        let speed = try #require(Double(metric.first { $0["source"] == "consensus" }?["wind_speed_high80_m_s"] ?? ""))
        let mph = try #require(Double(rows.first { $0["source"] == "consensus" }?["wind_speed_high80_mph"] ?? ""))
        #expect(abs(mph - speed * 2.236_936) < 0.01)
    }

    @Test func withoutLearnedWeightsTheIntervalColumnsAreEmpty() async throws {
        let (header, rows) = try table(await runCLI(["now", "Minsk", "--demo", "--format", "csv"]))
        #expect(header.contains("temperature_low80_c"))
        let consensus = try #require(rows.first { $0["source"] == "consensus" })
        #expect(consensus["temperature_c"] != "" && consensus["temperature_low80_c"] == "" && consensus["interval_basis"] == "")
    }

    @Test func fieldsAreQuotedAsRFC4180Says() {
        #expect(CSVField.quoted("Minsk") == "Minsk")
        #expect(CSVField.quoted(nil) == "")
        #expect(CSVField.quoted("Washington, D.C.") == "\"Washington, D.C.\"")
        #expect(CSVField.quoted("the \"Big\" Apple") == "\"the \"\"Big\"\" Apple\"")
        #expect(CSVField.quoted("two\nlines") == "\"two\nlines\"")
        #expect(CSVField.quoted("two\r\nlines") == "\"two\r\nlines\"")
        let line = CSVField.line(["a,b", nil, "c\"d", "e\nf", "-1.5"])
        #expect(parseCSV(line) == [["a,b", "", "c\"d", "e\nf", "-1.5"]])
    }

    @Test func unitSuffixesNameTheUnit() {
        let suffixes = ["°C": "c", "°F": "f", "K": "k", "%": "pct", "°": "deg", "m/s": "m_s", "mph": "mph", "hPa": "hpa", "inHg": "inhg",
                        "mm/h": "mm_h", "in/h": "in_h", "km": "km", "mi": "mi", "m": "m", "mm": "mm", "in": "in"]
        for (symbol, suffix) in suffixes { #expect(CSVRows.unitSuffix(symbol) == suffix, "\(symbol)") }
        for system in UnitSystem.allCases {
            let columns = CSVRows(view: .forecast(days: 1, hourly: true), units: system, now: Date(), leadingColumns: ["id"]).columns
            #expect(Set(columns).count == columns.count && columns.first == "id")
            #expect(columns.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") } }, "\(columns)")
        }
    }

    @Test func csvIsOnlyForWeatherCommands() async {
        for arguments in [["cities", "--demo"], ["search", "Minsk"], ["home", "--demo"], ["providers", "--demo"], ["cache"], ["Minsk", "--demo"]] {
            expectOneLineError(await runCLI(arguments + ["--format", "csv"]), code: .usage, containing: "expected table, jsonl")
        }
        expectOneLineError(await runCLI(["now", "Minsk", "--demo", "--json", "--format", "csv"]), code: .usage, containing: "--json means --format jsonl")
    }

    @Test func everyCommandWithAFormatTakesJSON() {
        let specs = CommandTable.all.map { $0.spec } + [Commands.place]
        for spec in specs where spec.options.contains(where: { $0.name == "format" }) {
            #expect(spec.options.contains { $0.name == "json" }, "\(spec.name) takes --format but not --json")
            let formats = spec.options.first { $0.name == "format" }?.choices ?? []
            #expect(formats.contains("jsonl"), "\(spec.name)")
            #expect(formats.contains("csv") == ["compare", "now", "forecast", "alerts", "air", "batch", "verify"].contains(spec.name), "\(spec.name): \(formats)")
        }
        #expect(specs.filter { $0.options.contains { $0.name == "format" } }.count >= 8)
    }
}
