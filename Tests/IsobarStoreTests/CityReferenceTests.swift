import Foundation
import IsobarCore
@testable import IsobarStore
import Testing

/// `Isle 01` … `Isle 40`, a degree of latitude apart.
private let isles = (1...40).map { Place(name: "Isle " + ($0 < 10 ? "0" : "") + "\($0)", coordinate: Coordinate(latitude: Double($0), longitude: 10)!) }

@Suite struct ConcurrentCityChangeStoreTests {
    /// What one of a round's changes names, and whether it removes or moves.
    private enum Change {
        case remove(CityReference)
        case move(CityReference, to: CityReference)
    }

    /// Every other isle is named: alternately removed by name, removed by coordinates, moved to number 1 and moved to the
    /// place of the isle before it (which nobody removes).
    private static let changes: [(target: Place, change: Change)] = (0..<20).map { index in
        let target = isles[2 * index + 1]
        let name = target.name
        let before = isles[2 * index].name
        switch index % 4 {
        case 0: return (target, .remove(.first { $0.name == name }))
        case 1: return (target, .remove(.coordinate(target.coordinate)))
        case 2: return (target, .move(.first { $0.name == name }, to: .number(1)))
        default: return (target, .move(.first { $0.name == name }, to: .first { $0.name == before }))
        }
    }

    @Test func parallelRemovesAndMovesFromSeveralStoresChangeExactlyTheCitiesTheyName() async throws {
        var wrong: [String] = []
        for _ in 0..<20 {
            let directory = freshDirectory()
            _ = try await UserDataStore.open(directory: directory).cities(seed: isles, now: Sample.now)
            // One store a change, as one process a command: each its own connection to the one file.
            var stores: [UserDataStore] = []
            for _ in Self.changes { stores.append(try await UserDataStore.open(directory: directory)) }
            let outcomes = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for (index, (target, change)) in Self.changes.enumerated() {
                    let store = stores[index]
                    group.addTask {
                        switch change {
                        case .remove(let city):
                            guard case .removed(let place, _) = try await store.removeCity(city), place == target else { return (index, "not removed") }
                        case .move(let city, let destination):
                            guard case .moved(let place, _, _) = try await store.moveCity(city, to: destination), place == target else {
                                return (index, "not moved")
                            }
                        }
                        return (index, "")
                    }
                }
                return try await group.reduce(into: [String](repeating: "", count: Self.changes.count)) { $0[$1.0] = $1.1 }
            }
            wrong += zip(Self.changes, outcomes).filter { !$0.1.isEmpty }.map { "\($0.0.target.name): \($0.1)" }
            let left = try await stores[0].cities(seed: [], now: Sample.now)
            let removed = Set(Self.changes.compactMap { if case .remove = $0.change { $0.target } else { nil } })
            #expect(left.count == Set(left).count)
            #expect(Set(left) == Set(isles).subtracting(removed), "lost: \(Set(isles).subtracting(removed).subtracting(left).map(\.name).sorted())")
            #expect(try await stores[0].integrityCheck() == "ok")
        }
        #expect(wrong.isEmpty, "\(wrong.count) of 400 changes found another city or none: \(wrong.prefix(5))")
    }

    @Test func aNumberIsThePositionInTheListWhenTheChangeIsMade() async throws {
        let directory = freshDirectory()
        let one = try await UserDataStore.open(directory: directory)
        let other = try await UserDataStore.open(directory: directory)
        _ = try await one.cities(seed: [Sample.minsk, Sample.paris, Sample.london], now: Sample.now)
        // Another process removes the first city: number 3 is gone, and number 2 is London now.
        #expect(try await other.removeCity(.number(1)) == .removed(Sample.minsk, position: 1))
        #expect(try await one.removeCity(.number(3)) == .noCity(cities: [Sample.paris, Sample.london]))
        #expect(try await one.moveCity(.number(3), to: .number(1)) == .noCity(cities: [Sample.paris, Sample.london]))
        #expect(try await one.moveCity(.number(1), to: .number(3)) == .noDestination(cities: [Sample.paris, Sample.london]))
        #expect(try await one.cities(seed: [], now: Sample.now) == [Sample.paris, Sample.london])
        #expect(try await one.removeCity(.number(2)) == .removed(Sample.london, position: 2))
        #expect(try await other.cities(seed: [], now: Sample.now) == [Sample.paris])
    }

    @Test func aNameOrPointNotInTheListChangesNothing() async throws {
        let store = try await UserDataStore.open(directory: freshDirectory())
        let cities = [Sample.minsk, Sample.paris]
        _ = try await store.cities(seed: cities, now: Sample.now)
        #expect(try await store.removeCity(.first { $0.name == "Atlantis" }) == .noCity(cities: cities))
        #expect(try await store.removeCity(.coordinate(Sample.tokyo.coordinate)) == .noCity(cities: cities))
        #expect(try await store.moveCity(.first { $0.name == "Atlantis" }, to: .number(1)) == .noCity(cities: cities))
        #expect(try await store.moveCity(.number(1), to: .first { $0.name == "Atlantis" }) == .noDestination(cities: cities))
        #expect(try await store.cities(seed: [], now: Sample.now) == cities)
    }
}
