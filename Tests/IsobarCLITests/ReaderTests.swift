// Reading Isobar's output as docs/json-lines.md shows: jq, DuckDB (read_json_auto, read_ndjson, read_csv_auto) and pandas
// (read_json(lines=True), read_csv), over one file mixing every line type. Each test runs when its tool is installed
// (scripts/install-deps.sh installs them) and is skipped with a message otherwise.
import Foundation
import IsobarCore
import Testing

/// One file holding every line type every command writes (batch's included), and a CSV forecast.
private func mixedFiles() async throws -> (jsonl: String, lines: Int, types: Int, csv: String) {
    let lines = try await LineCorpus.all().flatMap(\.lines) + LineCorpus.batchLines
    let directory = temporaryDirectory("readers")
    try lines.map { $0 + "\n" }.joined().write(toFile: directory + "/mixed.jsonl", atomically: true, encoding: .utf8)
    let csv = await runCLI(["forecast", "Minsk", "--demo", "--hourly", "--days", "2", "--format", "csv"])
    try csv.stdout.write(toFile: directory + "/forecast.csv", atomically: true, encoding: .utf8)
    let types = Set(try lines.map { try JSONDocument(parsing: Array($0.utf8)).rootValue.string("type") }).count
    return (directory + "/mixed.jsonl", lines.count, types, directory + "/forecast.csv")
}

/// The JSON object a reader script printed.
private func report(_ script: String, _ files: (jsonl: String, lines: Int, types: Int, csv: String)) async throws -> JSONValue {
    let run = try await Python.script(script, [files.jsonl, files.csv])
    #expect(run.code == 0, "\(script): \(run.stderr)")
    return try JSONDocument(parsing: Array(try #require(run.lines.last).utf8)).rootValue
}

@Suite(.serialized) struct ReaderTests {
    @Test(.enabled(if: systemTool("jq") != nil, "jq is not installed: the jq examples are not checked"))
    func jqReadsEveryLine() async throws {
        let files = try await mixedFiles()
        let jq = try #require(systemTool("jq"))
        // The example of docs/json-lines.md: the consensus temperature of each place.
        let now = try await runExactly(jq, ["-r", #"select(.type == "consensus") | [.place.name, .current.temperature] | @tsv"#, files.jsonl])
        #expect(now.code == 0, "\(now.stderr)")
        #expect(now.lines.contains("Minsk\t-0.1") && now.lines.contains("Tokyo\t13.1"))
        // Every line parses, and temperatures are numbers on provider and consensus lines alike.
        let kinds = try await runExactly(jq, ["-s", "-c", #"[.[] | select(.type == "provider_result" or .type == "consensus") | .current, .hourly[]? | objects | .temperature | select(. != null) | type] | unique"#, files.jsonl])
        #expect(kinds.stdout == "[\"number\"]\n", "\(kinds.stderr)")
        let count = try await runExactly(jq, ["-s", "length", files.jsonl])
        #expect(count.stdout == "\(files.lines)\n")
    }

    @Test(.enabled("python3 with duckdb is not installed: the DuckDB examples are not checked") { await Python.has("duckdb") })
    func duckDBTypesNumericColumnsAsNumbers() async throws {
        let files = try await mixedFiles()
        let read = try await report("read_duckdb.py", files)
        #expect(try read.double("rows") == Double(files.lines))
        #expect(try read.double("types") == Double(files.types))
        let columns = try read.member("columns")
        #expect(try columns.string("schema") == "BIGINT")
        #expect(try columns.string("temperature") == "DOUBLE")
        for numeric in ["removed", "file_bytes", "rank", "index", "places", "wall_s", "input_line"] {
            let type = try columns.string(numeric)
            #expect(["BIGINT", "DOUBLE"].contains(type), "\(numeric): \(type)")
        }
        // Provider and consensus hours share one struct: temperature is a DOUBLE in it, not JSON.
        for nested in ["current", "hourly"] {
            let type = try columns.string(nested)
            #expect(type.contains("temperature DOUBLE") && type.contains("pressure DOUBLE") && !type.contains("temperature JSON"), "\(nested): \(type)")
        }
        #expect(try columns.string("daily").contains("temperature_max DOUBLE"))
        let hourly = try read.member("hourly_temperature").elements()
        #expect(try hourly.map { try $0.elements()[0].string() } == ["DOUBLE"])
        let consensus = try read.member("consensus_now").elements().map { try [$0.elements()[0].string(), String($0.elements()[1].double())] }
        #expect(consensus.contains(["Minsk", "-0.1"]) && consensus.contains(["Tokyo", "13.1"]))
        let csv = try read.member("csv")
        #expect(try csv.string("temperature_c") == "DOUBLE" && csv.string("time") == "TIMESTAMP WITH TIME ZONE" && csv.string("date") == "DATE")
    }

    @Test(.enabled("python3 with pandas is not installed: the pandas examples are not checked") { await Python.has("pandas") })
    func pandasTypesNumericColumnsAsNumbers() async throws {
        let files = try await mixedFiles()
        let read = try await report("read_pandas.py", files)
        #expect(try read.double("rows") == Double(files.lines))
        #expect(try read.double("types") == Double(files.types))
        let columns = try read.member("columns")
        #expect(try columns.string("schema") == "int64")
        for numeric in ["temperature", "removed", "rank", "wall_s"] {
            let type = try columns.string(numeric)
            #expect(type.hasPrefix("float") || type.hasPrefix("int"), "\(numeric): \(type)")
        }
        for (table, key) in [("hourly", "temperature"), ("hourly", "pressure"), ("current", "temperature"), ("current", "merged.temperature.spread")] {
            #expect(try read.member(table).string(key) == "float64", "\(table).\(key)")
        }
        #expect(try read.member("csv").string("temperature_c") == "float64")
    }
}
