import Foundation
import IsobarCLI
import IsobarCore
import IsobarStore
import Synchronization
import Testing

/// Holds every task that arrives until `parties` have, then lets them all go at once; `open()` lets them go early.
private final class Barrier: Sendable {
    private let parties: Int
    private let state = Mutex<(arrived: Int, open: Bool, waiting: [CheckedContinuation<Void, Never>])>((0, false, []))

    init(parties: Int) { self.parties = parties }

    /// Waits until `parties` tasks have arrived or the barrier was opened.
    func arrive() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let released = state.withLock { state in
                state.arrived += 1
                state.waiting.append(continuation)
                guard state.open || state.arrived >= parties else { return [CheckedContinuation<Void, Never>]() }
                state.open = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for waiter in released { waiter.resume() }
        }
    }

    /// Lets every waiting task go, and those that arrive later.
    func open() {
        let released = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in released { waiter.resume() }
    }
}

/// `Isle 01` … `Isle 40`, a degree of latitude apart.
private let isles = (1...40).map { Place(name: "Isle " + ($0 < 10 ? "0" : "") + "\($0)", coordinate: Coordinate(latitude: Double($0), longitude: 10)!) }

/// A data folder whose cities are `places`.
private func citiesFolder(_ places: [Place]) async throws -> [String: String] {
    let data = temporaryDirectory("city-changes")
    let store = try await UserDataStore.open(directory: data + "/isobar")
    _ = try await store.cities(seed: places, now: Date(timeIntervalSince1970: 1_795_856_400))
    return ["XDG_DATA_HOME": data]
}

/// The names of the cities in the data folder, in order, read from the file.
private func listedNames(_ environment: [String: String]) async throws -> [String] {
    let store = try await UserDataStore.open(directory: try #require(environment["XDG_DATA_HOME"]) + "/isobar")
    return try await store.cities(seed: [], now: Date(timeIntervalSince1970: 1_795_856_400)).map(\.name)
}

@Suite struct ConcurrentCityChangeTests {
    /// One command of a round: what it names and what it should print.
    private struct Change {
        var arguments: [String]
        var target: Place
        var removes: Bool
    }

    /// The round's commands: every other isle is named, alternately removed by name, by coordinates, moved to number 1 and
    /// moved to the place of the isle before it (which nobody removes).
    private static let changes: [Change] = (0..<20).map { index in
        let target = isles[2 * index + 1]
        switch index % 4 {
        case 0: return Change(arguments: ["cities", "rm", target.name], target: target, removes: true)
        case 1: return Change(arguments: ["cities", "remove", "\(target.coordinate.latitude),10.0"], target: target, removes: true)
        case 2: return Change(arguments: ["cities", "move", target.name, "1"], target: target, removes: false)
        default: return Change(arguments: ["cities", "move", target.name, isles[2 * index].name], target: target, removes: false)
        }
    }

    @Test func parallelRemovesAndMovesChangeExactlyTheCitiesTheyName() async throws {
        var lost: [String] = []
        var kept: [String] = []
        var wrongMessages: [String] = []
        var otherCity = 0
        for _ in 0..<20 {
            let environment = try await citiesFolder(isles)
            // Every command reads the list, then waits until all twenty have read it: each change then falls after the
            // others' reads, as it can when processes run at once.
            let barrier = Barrier(parties: Self.changes.count)
            let runs = await withTaskGroup(of: (Int, CLIRun).self) { group in
                for (index, change) in Self.changes.enumerated() {
                    group.addTask {
                        let run = await runCLI(change.arguments + ["--demo"], environment: environment, beforeCityChange: barrier.arrive)
                        // A command that ended before reaching the barrier must not hold the others.
                        barrier.open()
                        return (index, run)
                    }
                }
                var runs = [CLIRun?](repeating: nil, count: Self.changes.count)
                for await (index, run) in group { runs[index] = run }
                return runs.compactMap { $0 }
            }
            for (change, run) in zip(Self.changes, runs) {
                let own = change.removes ? run.stdout == "Removed \(change.target.name).\n"
                                         : run.stdout.hasPrefix("Moved \(change.target.name) to number ")
                if run.code != 0 || !own || !run.stderr.isEmpty {
                    wrongMessages.append("\(change.arguments.dropFirst()): exit \(run.code), \(run.stdout)\(run.stderr)")
                }
                if run.code == 0 && !own { otherCity += 1 }
            }
            let left = try await listedNames(environment)
            let expected = Set(isles.map(\.name)).subtracting(Self.changes.filter(\.removes).map(\.target.name))
            lost += expected.subtracting(left).sorted()
            kept += Set(left).subtracting(expected).sorted()
            #expect(left.count == Set(left).count, "a city is listed twice: \(left)")
        }
        // 20 rounds: 600 cities nobody named, 200 named for removal, 400 commands.
        #expect(lost.isEmpty, "\(lost.count) of 600 cities nobody named were lost: \(lost.prefix(5))")
        #expect(kept.isEmpty, "\(kept.count) of 200 cities named for removal are still there: \(kept.prefix(5))")
        #expect(wrongMessages.isEmpty, "\(wrongMessages.count) of 400 commands failed or named another city: \(wrongMessages.prefix(3))")
        #expect(otherCity == 0, "\(otherCity) of 400 commands changed another city and exited 0")
    }
}

@Suite struct CityChangeErrorTests {
    /// Runs `arguments` on `places`, with `meanwhile` run after the command has read the list and before it changes it.
    private func run(_ arguments: [String], on places: [Place], meanwhile: [String]) async throws -> (CLIRun, [String]) {
        let environment = try await citiesFolder(places)
        let run = await runCLI(arguments + ["--demo"], environment: environment, beforeCityChange: {
            let other = await runCLI(meanwhile + ["--demo"], environment: environment)
            #expect(other.code == 0, "\(other.stderr)")
        })
        return (run, try await listedNames(environment))
    }

    @Test func aNumberGoneFromTheListBeforeTheChangeIsAnErrorAndChangesNothing() async throws {
        let three = Array(isles.prefix(3))
        let (removed, left) = try await run(["cities", "rm", "3"], on: three, meanwhile: ["cities", "rm", "Isle 01"])
        expectOneLineError(removed, code: .badPlace, containing: "there is no city number 3; you have 2 (1 to 2)")
        #expect(left == ["Isle 02", "Isle 03"])
        let (moved, after) = try await run(["cities", "move", "Isle 03", "3"], on: three, meanwhile: ["cities", "rm", "1"])
        expectOneLineError(moved, code: .badPlace, containing: "there is no city number 3; you have 2 (1 to 2)")
        #expect(after == ["Isle 02", "Isle 03"])
    }

    @Test func aNumberMeansThePositionWhenTheChangeIsMade() async throws {
        let (removed, left) = try await run(["cities", "rm", "2"], on: Array(isles.prefix(3)), meanwhile: ["cities", "rm", "Isle 01"])
        #expect(removed.code == 0, "\(removed.stderr)")
        #expect(removed.stdout == "Removed Isle 03.\n")
        #expect(left == ["Isle 02"])
    }

    @Test func aNameGoneFromTheListBeforeTheChangeIsAnErrorAndChangesNothing() async throws {
        let three = Array(isles.prefix(3))
        let (removed, left) = try await run(["cities", "rm", "isle 02"], on: three, meanwhile: ["cities", "rm", "Isle 02"])
        expectOneLineError(removed, code: .badPlace, containing: "'isle 02' is not one of your cities (Isle 01, Isle 03)")
        #expect(left == ["Isle 01", "Isle 03"])
        let (moved, after) = try await run(["cities", "move", "1", "Isle 02"], on: three, meanwhile: ["cities", "rm", "2.0,10.0"])
        expectOneLineError(moved, code: .badPlace, containing: "'Isle 02' is not one of your cities (Isle 01, Isle 03)")
        #expect(after == ["Isle 01", "Isle 03"])
    }

    @Test func anUnknownNameIsAnErrorAndChangesNothing() async throws {
        let (removed, left) = try await run(["cities", "rm", "Atlantis"], on: Array(isles.prefix(2)), meanwhile: ["cities", "move", "2", "1"])
        expectOneLineError(removed, code: .badPlace, containing: "'Atlantis' is not one of your cities (Isle 02, Isle 01)")
        #expect(left == ["Isle 02", "Isle 01"])
    }
}

@Suite struct SameCityCLITests {
    @Test func aPlaceWithin100MetresOfACityIsNotAddedAgain() async throws {
        let environment = ["XDG_DATA_HOME": temporaryDirectory("same-city")]
        let first = await runCLI(["cities", "add", "10.0,20.0", "--demo"], environment: environment)
        #expect(first.code == 0, "\(first.stderr)")
        #expect(first.stdout.hasSuffix(" as city number 3.\n"))
        let again = await runCLI(["cities", "add", "10.0005,20", "--demo"], environment: environment)
        #expect(again.code == 0, "\(again.stderr)")
        #expect(again.stdout.hasSuffix(" is already city number 3.\n"))
        let far = await runCLI(["cities", "add", "10.0012,20", "--demo"], environment: environment)
        #expect(far.stdout.hasSuffix(" as city number 4.\n"))
        #expect(try await listedNames(environment).count == 4)
    }
}
