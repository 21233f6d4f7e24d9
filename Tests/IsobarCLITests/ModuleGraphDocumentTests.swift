import Foundation
import Testing

/// docs/modules.md lists what each module imports; `Package.swift` declares it. The two must say the same.
@Suite struct ModuleGraphDocumentTests {
    /// Each target of `Package.swift` with the dependencies it declares by name (the compiled providers' from `providerTargets`).
    static func declared() throws -> (targets: [String: Set<String>], providers: [String], uses: [String: Set<String>]) {
        let text = try String(contentsOfFile: packageRoot + "/Package.swift", encoding: .utf8)
        var targets: [String: Set<String>] = [:]
        let target = try Regex(#"\.(?:target|executableTarget)\(\s*name:\s*"([^"]+)",\s*dependencies:\s*\[([^\]]*)\]"#)
        for match in text.matches(of: target) {
            let name = String(try #require(match.output[1].substring))
            targets[name] = Set(quoted(try #require(match.output[2].substring)))
        }
        let list = try #require(text.firstMatch(of: try Regex(#"let providerTargets[^=]*=\s*\[(.*?)\n\]"#).dotMatchesNewlines()))
        var providers: [String] = []
        var uses: [String: Set<String>] = [:]
        for line in try #require(list.output[1].substring).split(separator: "\n") {
            guard let entry = line.firstMatch(of: try Regex(#"^\s*\("([^"]+)",\s*uses:\s*\[([^\]]*)\]"#)) else { continue }
            let name = String(try #require(entry.output[1].substring))
            providers.append(name)
            uses[name] = Set(quoted(try #require(entry.output[2].substring)))
        }
        return (targets, providers, uses)
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
        let (targets, providers, _) = try Self.declared()
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

    @Test func noModuleImportsWhatPackageSwiftDoesNotDeclare() throws {
        let (targets, providers, uses) = try Self.declared()
        let modules = Set(targets.keys).union(providers)
        // The command line depends on every compiled provider too, through `providerTargets`.
        var folders = targets.keys.map { ($0, "Sources/" + $0, $0 == "IsobarCLI" ? (targets[$0] ?? []).union(providers) : targets[$0] ?? []) }
        folders += providers.map { ($0, "Providers/" + $0, Set(["IsobarCore"]).union(uses[$0] ?? [])) }
        var read = 0
        for (module, folder, declared) in folders {
            guard let files = FileManager.default.enumerator(atPath: packageRoot + "/" + folder) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: packageRoot + "/" + folder + "/" + file, encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@testable import ") {
                    let imported = String(line.split(separator: " ").last ?? "")
                    guard modules.contains(imported), imported != module else { continue }
                    read += 1
                    #expect(declared.contains(imported), "\(folder)/\(file) imports \(imported), which Package.swift does not declare for \(module)")
                }
            }
        }
        #expect(read >= 100, "only \(read) imports of the package's modules read")
    }

    @Test func packageSwiftIsReadAsWritten() throws {
        let (targets, providers, uses) = try Self.declared()
        #expect(uses["METAR"] == ["IsobarPlaces"] && uses["METNorway"] == [])
        #expect(targets["IsobarConsensus"] == ["IsobarCore"])
        #expect(targets["IsobarRender"] == ["IsobarCore", "IsobarConsensus", "IsobarPlaces"])
        #expect(providers.contains("METNorway") && providers.contains("Exec"))
        #expect(Self.quoted(#""A", "B""#) == ["A", "B"])
    }
}
