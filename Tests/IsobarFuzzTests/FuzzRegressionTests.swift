import Foundation
import IsobarFuzzTargets
import Testing

/// This checkout's root.
private let root: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// `Tests/FuzzRegressions`: one folder per target, each input named `accepted-…` or `rejected-…` after what it must do.
private let regressions = root + "/Tests/FuzzRegressions"

/// Every kept input as (target, file name).
private func keptInputs() -> [(target: String, file: String)] {
    let folders = ((try? FileManager.default.contentsOfDirectory(atPath: regressions)) ?? []).sorted()
    return folders.flatMap { folder in
        ((try? FileManager.default.contentsOfDirectory(atPath: regressions + "/" + folder)) ?? []).sorted().map { (folder, $0) }
    }
}

private func bytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

@Suite("Fuzzing: kept inputs, targets and the script")
struct FuzzRegressionTests {
    @Test func thereAreKeptInputs() {
        #expect(keptInputs().count >= 6)
    }

    @Test(arguments: keptInputs().map { "\($0.target)/\($0.file)" })
    func keptInputDoesWhatItsNameSays(_ input: String) throws {
        let parts = input.split(separator: "/", maxSplits: 1).map(String.init)
        let target = try #require(FuzzTargets.named(parts[0]), "Tests/FuzzRegressions/\(parts[0]) names no fuzz target")
        let expected = try #require(parts[1].split(separator: "-").first.map(String.init))
        #expect(["accepted", "rejected"].contains(expected), "\(input) must start with accepted- or rejected-")
        let outcome = target.run(try bytes(regressions + "/" + input))
        #expect(outcome.kind == expected, "\(input): \(outcome)")
        if case .rejected(let message) = outcome {
            #expect(!message.isEmpty)
            #expect(!message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        }
    }

    @Test func targetNamesAreUniqueAndDescribed() {
        let names = FuzzTargets.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLowercase || $0 == "-" } })
        #expect(FuzzTargets.all.allSatisfy { !$0.summary.isEmpty })
        #expect(FuzzTargets.named("no-such-target") == nil)
    }

    /// The script seeds each target by name; every target needs seeds and every seeded name must be a target.
    @Test func scriptSeedsExactlyTheTargets() throws {
        let script = try String(contentsOfFile: root + "/scripts/fuzz.sh", encoding: .utf8)
        let seedFunction = try #require(script.range(of: "seed() {")).upperBound
        let body = script[seedFunction...].prefix { _ in true }
        let end = try #require(body.range(of: "esac")).lowerBound
        let labels = body[..<end].split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let close = trimmed.firstIndex(of: ")"), !trimmed.hasPrefix("*"), !trimmed.hasPrefix("case") else { return nil }
            return String(trimmed[..<close])
        }
        #expect(labels.sorted() == FuzzTargets.all.map(\.name).sorted())
        #expect(FileManager.default.isExecutableFile(atPath: root + "/scripts/fuzz.sh"))
    }

    @Test func everyFolderOfKeptInputsIsATarget() throws {
        for folder in try FileManager.default.contentsOfDirectory(atPath: regressions) {
            #expect(FuzzTargets.named(folder) != nil, "Tests/FuzzRegressions/\(folder)")
        }
    }

    @Test func emptyInputIsRefusedByEveryTarget() {
        for target in FuzzTargets.all {
            guard case .rejected(let message) = target.run([]) else {
                Issue.record("\(target.name) did not refuse an empty input")
                continue
            }
            #expect(!message.isEmpty, "\(target.name)")
        }
    }

    /// The seeds the script starts from are accepted, so the targets reach past the first refusal.
    @Test func bundledFilesAreAccepted() throws {
        let cassettes = root + "/config/cassettes"
        for provider in ["openweathermap", "open-meteo"] {
            let file = cassettes + "/\(provider)/london.json"
            #expect(FuzzTargets.named("cassette")?.run(try bytes(file)).kind == "accepted", "\(file)")
        }
        for name in ["isobar.json", "demo.json"] {
            #expect(FuzzTargets.named("configuration")?.run(try bytes(root + "/config/" + name)).kind == "accepted", "\(name)")
        }
        let gazetteer = FuzzTargets.named("gazetteer")?.run(try bytes(root + "/Fuzz/seeds/gazetteer/sample.tsv"))
        #expect(gazetteer == .accepted("2 cities, 3 matches"))
        #expect(FuzzTargets.named("json")?.run(Array("[1,\"a\",{\"b\":null}]".utf8)) == .accepted("top level: array"))
    }

    @Test func decodersAcceptARecordedBodyAndRefuseATruncatedOne() throws {
        let current = Array(#"{"dt":1795855891,"main":{"temp":7.7,"humidity":86,"pressure":1015},"weather":[{"id":802}],"timezone":0}"#.utf8)
        let outcome = try #require(FuzzTargets.named("openweathermap")).run(current)
        #expect(outcome == .accepted("current yes, 0 hourly, 0 daily, 0 warnings"))
        #expect(try #require(FuzzTargets.named("openweathermap")).run(Array(current.dropLast(5))).kind == "rejected")
        #expect(try #require(FuzzTargets.named("open-meteo")).run(Array(#"{"utc_offset_seconds":0}"#.utf8)).kind == "accepted")
        #expect(try #require(FuzzTargets.named("open-meteo")).run(Array(#"{"utc_offset_seconds":999999}"#.utf8)).kind == "rejected")
    }
}
