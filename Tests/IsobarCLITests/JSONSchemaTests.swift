// The JSON-lines contract: every line every command writes matches schemas/isobar-lines-v1.schema.json (checked with the
// Python package jsonschema, which scripts/install-deps.sh installs), the validator catches what breaks the contract, and
// every key has one JSON type wherever it appears, so that DuckDB and pandas type each column once.
import Foundation
import IsobarCore
import Testing

/// Runs a test only when Python and jsonschema are here.
private let needsValidator = ConditionTrait.enabled(
    "python3 with jsonschema is not installed (scripts/install-deps.sh installs it): the schema is not checked") { await Python.has("jsonschema") }

/// The problems the validator finds in `lines`, as (line number, JSON path, message).
private func validate(_ lines: [String]) async throws -> [(line: Int, path: String, message: String)] {
    let file = temporaryDirectory("validate") + "/lines.jsonl"
    try lines.map { $0 + "\n" }.joined().write(toFile: file, atomically: true, encoding: .utf8)
    let run = try await Python.script("validate_lines.py", [LineCorpus.schemaPath, file])
    #expect(run.code == 0 || run.code == 1, "the validator did not run: \(run.stderr)")
    return run.lines.map { row in
        let fields = row.split(separator: "\t", maxSplits: 2).map(String.init)
        return (Int(fields[0]) ?? 0, fields.count > 1 ? fields[1] : "", fields.count > 2 ? fields[2] : "")
    }
}

@Suite struct JSONSchemaTests {
    @Test(needsValidator)
    func everyLineOfEveryCommandMatchesTheSchema() async throws {
        let runs = try await LineCorpus.all()
        var seen = Set<String>()
        // One validator run over every line; each problem is reported with the command that wrote the line.
        let lines = runs.flatMap { run in run.lines.enumerated().map { (command: run.command, number: $0.offset + 1, text: $0.element) } }
        for problem in try await validate(lines.map(\.text)) {
            let line = lines[problem.line - 1]
            Issue.record("\(line.command), line \(line.number): \(problem.path): \(problem.message)")
        }
        for run in runs {
            #expect(!run.lines.isEmpty, "\(run.command) wrote no line")
            for line in run.lines {
                let value = try JSONDocument(parsing: Array(line.utf8), rejectingDuplicateKeys: true).rootValue
                #expect(try value.double("schema") == 1, "\(run.command): \(line.prefix(80))")
                seen.insert(try value.string("type"))
            }
        }
        // Each line type the schema names is written by some command run here (batch's are checked below).
        #expect(try LineCorpus.schemaTypes().subtracting(LineCorpus.batchOnlyTypes) == seen)
    }

    @Test(needsValidator)
    func batchLinesHaveTheirShapes() async throws {
        let consensus = try #require(try LineCorpus.goldenRuns().first { $0.command.contains("compare") }?.lines.last { $0.contains(#""type":"consensus""#) })
        let tagged = consensus.replacingOccurrences(of: #""type":"consensus","#, with: #""type":"consensus","input_line":2,"id":"depot-7","#)
        // `batch --kind air`: the air line with the input line and id.
        let air = try #require(try LineCorpus.goldenRuns().first { $0.command.contains("isobar air") }?.lines.first)
        let taggedAir = air.replacingOccurrences(of: #""type":"air","#, with: #""type":"air","input_line":2,"id":"depot-7","#)
        #expect(try await validate(LineCorpus.batchLines + [tagged, taggedAir]).isEmpty)

        let bad = [
            LineCorpus.batchLines[0].replacingOccurrences(of: "unknown_place", with: "no_such_code"),
            LineCorpus.batchLines[0].replacingOccurrences(of: #""input_line":3,"#, with: ""),
            LineCorpus.batchLines[2].replacingOccurrences(of: #""interrupted":false"#, with: #""interrupted":"no""#),
            consensus.replacingOccurrences(of: #""type":"consensus","#, with: #""type":"consensus","input_line":"2","#),
            consensus.replacingOccurrences(of: #""type":"consensus","#, with: #""type":"consensus","input_line":0,"#),
        ]
        #expect(Set(try await validate(bad).map(\.line)) == [1, 2, 3, 4, 5])
    }

    @Test(needsValidator)
    func theValidatorRejectsWhatBreaksTheContract() async throws {
        let lines = try #require(try LineCorpus.goldenRuns().first { $0.command.contains("compare") }?.lines)
        let result = try #require(lines.first { $0.contains(#""provider":"open-meteo/ecmwf_ifs025""#) })
        let consensus = try #require(lines.last { $0.contains(#""type":"consensus""#) })
        let cases: [(String, String)] = [
            ("a missing required field", result.replacingOccurrences(of: #""provider":"open-meteo/ecmwf_ifs025","#, with: "")),
            ("a missing nested field", consensus.replacingOccurrences(of: #""spread":4.5,"#, with: "")),
            ("a number as a string", result.replacingOccurrences(of: #""temperature":-0.5,"#, with: #""temperature":"-0.5","#)),
            ("an object where a number goes", consensus.replacingOccurrences(of: #""temperature":-0.1,"#, with: #""temperature":{"value":-0.1},"#)),
            ("an unknown line type", result.replacingOccurrences(of: #""type":"provider_result""#, with: #""type":"provider_forecast""#)),
            ("another schema version", result.replacingOccurrences(of: #""schema":1,"#, with: #""schema":2,"#)),
            ("no schema version", result.replacingOccurrences(of: #""schema":1,"#, with: "")),
            ("no type", result.replacingOccurrences(of: #""type":"provider_result","#, with: "")),
            ("a field the schema does not list", result.replacingOccurrences(of: #""status":"ok","#, with: #""status":"ok","mood":"sunny","#)),
            ("a status no provider has", result.replacingOccurrences(of: #""status":"ok","#, with: #""status":"fine","#)),
            ("an instant without its offset", result.replacingOccurrences(of: #""fetched_at":"2026-11-28T09:00:00+00:00""#, with: #""fetched_at":"2026-11-28 09:00""#)),
        ]
        for (what, line) in cases { #expect(line != result && line != consensus, "the test did not change the line for \(what)") }
        let problems = try await validate(cases.map(\.1))
        for (index, (what, _)) in cases.enumerated() {
            #expect(problems.contains { $0.line == index + 1 }, "the validator accepted \(what)")
        }
        #expect(try await validate([result, consensus]).isEmpty)
    }

    /// In CI the validator must run, not be skipped.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CI"] == "true"))
    func theValidatorIsInstalledInCI() async {
        #expect(await Python.has("jsonschema"), "scripts/install-deps.sh did not install jsonschema")
    }

    @Test func everyKeyHasOneTypeAcrossEveryLineType() async throws {
        var types: [String: Set<String>] = [:]
        var examples: [String: String] = [:]
        var keys = Set<String>()
        var providers = Set<String>()
        func walk(_ value: JSONValue, _ path: String, _ line: String) throws {
            switch value.kind {
            case .null: return
            case .object:
                for (key, member) in try value.members() {
                    keys.insert(key)
                    if key == "provider", member.kind == .string { providers.insert(try member.string()) }
                    try walk(member, path + "." + key, line)
                }
            case .array: for element in try value.elements() { try walk(element, path + "[]", line) }
            default: break
            }
            if types[path, default: []].insert(value.kind.name).inserted { examples[path + " " + value.kind.name] = String(line.prefix(60)) }
        }
        for run in try await LineCorpus.all() + [LineCorpus.Run(command: "batch", lines: LineCorpus.batchLines)] {
            for line in run.lines {
                let value = try JSONDocument(parsing: Array(line.utf8)).rootValue
                try walk(value, "$", "\(run.command): \(try value.string("type"))")
            }
        }
        for (path, kinds) in types.sorted(by: { $0.key < $1.key }) where kinds.count > 1 {
            let whereFrom = kinds.sorted().map { "\($0) in \(examples[path + " " + $0] ?? "?")" }.joined(separator: "; ")
            Issue.record("\(path) is \(whereFrom)")
        }
        // Nothing is keyed by a provider id: providers are values in arrays of {"provider": …}.
        #expect(providers.isSuperset(of: ["open-meteo", "openweathermap"]))
        #expect(keys.isDisjoint(with: providers), "keyed by provider id: \(keys.intersection(providers).sorted())")
        // The shapes analysis tools read: the same plain number on provider and consensus lines.
        for path in ["$.current.temperature", "$.hourly[].temperature", "$.daily[].temperature_max", "$.temperature"] {
            #expect(types[path] == ["number"], "\(path): \(types[path] ?? [])")
        }
        #expect(types["$.current.condition"] == ["string"])
    }
}
