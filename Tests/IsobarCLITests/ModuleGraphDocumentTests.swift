import Foundation
import Testing

/// docs/modules.md lists what each module imports; `Package.swift` declares it. The two must say the same.
@Suite struct ModuleGraphDocumentTests {
    /// Each target of `Package.swift` with the dependencies it declares by name (the compiled providers' from `providerTargets`).
    static func declared() throws -> (targets: [String: Set<String>], providers: [String]) {
        let text = try String(contentsOfFile: packageRoot + "/Package.swift", encoding: .utf8)
        var targets: [String: Set<String>] = [:]
        let target = try Regex(#"\.(?:target|executableTarget)\(\s*name:\s*"([^"]+)",\s*dependencies:\s*\[([^\]]*)\]"#)
        for match in text.matches(of: target) {
            let name = String(try #require(match.output[1].substring))
            targets[name] = Set(quoted(try #require(match.output[2].substring)))
        }
        let list = try #require(text.firstMatch(of: try Regex(#"let providerTargets[^=]*=\s*\[(.*?)\n\]"#).dotMatchesNewlines()))
        let providers = try list.output[1].substring.map { block in
            try block.split(separator: "\n").compactMap { line -> String? in
                guard let name = line.firstMatch(of: try Regex(#"^\s*\("([^"]+)""#)) else { return nil }
                return String(try #require(name.output[1].substring))
            }
        } ?? []
        return (targets, providers)
    }

    /// The quoted words of a text: `"IsobarCore", "CSQLite"` → the two names.
    static func quoted(_ text: Substring) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The rows of the module table of docs/modules.md: the names in code in the first column and in the second.
    static func documented() throws -> [(modules: [String], imports: [String], text: String)] {
        let text = try String(contentsOfFile: packageRoot + "/docs/modules.md", encoding: .utf8)
        let table = try #require(text.components(separatedBy: "| module | imports |").dropFirst().first)
        return table.split(separator: "\n").prefix { $0.hasPrefix("|") }.dropFirst().map { row in
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let names = { (cell: String) in cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) } }
            return (names(cells[0]), names(cells.count > 1 ? cells[1] : ""), String(row))
        }
    }

    @Test func theModuleTableSaysWhatPackageSwiftDeclares() throws {
        let (targets, providers) = try Self.declared()
        let rows = try Self.documented()
        #expect(rows.count >= 12, "only \(rows.count) rows read from docs/modules.md")
        var listed: Set<String> = []
        for row in rows {
            listed.formUnion(row.modules)
            if row.modules.count == 1, let module = row.modules.first, module != "IsobarCLI" {
                let declared = try #require(targets[module], "docs/modules.md lists \(module), which Package.swift does not declare")
                #expect(Set(row.imports) == declared, "\(module): docs/modules.md says \(row.imports.sorted()), Package.swift \(declared.sorted())")
            } else if row.modules.contains(where: providers.contains) {
                // The compiled providers: each in the row, each importing Core and what the row adds for it.
                for provider in providers {
                    #expect(row.text.contains("`\(provider)`"), "the provider row of docs/modules.md leaves out \(provider)")
                }
            }
        }
        // The command line imports every module listed except the test kit, the simulation and itself; plus every provider.
        let everyModule = listed.subtracting(["IsobarTestKit", "IsobarSimulation", "IsobarCLI", "isobar", "CJansson"]).subtracting(providers)
        #expect(try #require(targets["IsobarCLI"]) == everyModule, "IsobarCLI's dependencies are not 'every module above except the test kit and the simulation'")
        // Every module of the package is in the table (the benchmarks and fuzzing are tools, not modules of the program).
        for name in targets.keys where !name.hasPrefix("isobar-") && name != "IsobarFuzzTargets" {
            #expect(listed.contains(name), "Package.swift declares \(name), which docs/modules.md does not list")
        }
    }

    @Test func packageSwiftIsReadAsWritten() throws {
        let (targets, providers) = try Self.declared()
        #expect(targets["IsobarConsensus"] == ["IsobarCore"])
        #expect(targets["IsobarRender"] == ["IsobarCore", "IsobarConsensus", "IsobarPlaces"])
        #expect(providers.contains("METNorway") && providers.contains("Exec"))
        #expect(Self.quoted(#""A", "B""#) == ["A", "B"])
    }
}
