import FoundationEssentials
import IsobarPlaces
import IsobarTestKit
#if canImport(Glibc)
import Glibc
#endif

/// Gazetteer load time, resident memory once loaded, and search latency over random name prefixes.
func benchmarkPlaces() throws {
    let path = dataDirectory() + "/gazetteer/" + Gazetteer.fileName
    let clock = ContinuousClock()
    func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    var loads: [Double] = []
    for _ in 0..<15 {
        let fresh = Gazetteer(path: path)
        loads.append(microseconds(try clock.measure { try fresh.load() }) / 1000)
    }
    loads.sort()
    let gazetteer = Gazetteer(path: path)
    try gazetteer.load()
    let cities = try gazetteer.cityCount()
    print("places: \(path), \(cities) cities")
    print("  load (fresh Gazetteer, 15 runs)  median \(format(loads[loads.count / 2])) ms   min \(format(loads[0])) ms   max \(format(loads[loads.count - 1])) ms")
    print("  peak RSS once loaded (VmHWM)     \(format(Double(statusKilobytes("VmHWM")) / 1024)) MiB   (VmRSS \(format(Double(statusKilobytes("VmRSS")) / 1024)) MiB)")

    var generator = SeededGenerator(seed: 20_261_128)
    let names = try cityNames(path: path)
    let prefixes = (0..<10_000).map { _ -> String in
        let name = Array(names[Int.random(in: 0..<names.count, using: &generator)])
        return String(name.prefix(Int.random(in: 2...max(2, name.count), using: &generator)))
    }
    let typos = (0..<1_000).map { _ -> String in
        var name = Array(names[Int.random(in: 0..<names.count, using: &generator)])
        while name.count < 5 { name = Array(names[Int.random(in: 0..<names.count, using: &generator)]) }
        name[Int.random(in: 1..<name.count, using: &generator)] = "q"
        return String(name)
    }
    for (label, queries) in [("10,000 random prefixes of city names", prefixes), ("1,000 city names with one letter replaced", typos)] {
        var samples: [Double] = []
        var found = 0
        var refused = 0
        for query in queries {
            let started = clock.now
            do {
                found += try gazetteer.search(query, limit: 10).isEmpty ? 0 : 1
            } catch {
                refused += 1
            }
            samples.append(microseconds(clock.now - started))
        }
        samples.sort()
        let p99 = samples[min(samples.count - 1, samples.count * 99 / 100)]
        print("  search, \(label): median \(format(samples[samples.count / 2])) µs   p99 \(format(p99)) µs   max \(format(samples[samples.count - 1])) µs"
            + "   (\(found) with matches, \(refused) refused as too short)")
    }
}

/// The names of every city in the gazetteer file, read directly from its city lines.
private func cityNames(path: String) throws -> [String] {
    guard let data = FileManager.default.contents(atPath: path) else { throw GazetteerError(.unreadableFile, "cannot read \(path)") }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let counts = lines[0].split(separator: "\t").dropFirst(2).compactMap { Int($0) }
    guard counts.count == 6 else { throw GazetteerError(.corruptFile, "bad header in \(path)") }
    let comments = lines.dropFirst().prefix { $0.hasPrefix("#") }.count
    let start = 1 + comments + counts[0] + counts[1] + counts[2]
    return lines[start..<(start + counts[3])].map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[1]) }
}

/// A `VmXXX` figure from /proc/self/status, in kB (0 where there is no such file).
func statusKilobytes(_ key: String) -> Int {
    // /proc files report a size of 0, so read them in chunks rather than through FileManager.
    guard let file = fopen("/proc/self/status", "r") else { return 0 }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes += chunk[..<count]
    }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix(key + ":") {
        return Int(line.dropFirst(key.count + 1).split { $0 == " " || $0 == "\t" }.first ?? "") ?? 0
    }
    return 0
}

