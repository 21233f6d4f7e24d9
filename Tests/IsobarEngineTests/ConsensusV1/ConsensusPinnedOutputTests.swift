import Foundation
import IsobarConsensus
import IsobarCore
import IsobarEngine
import IsobarTestKit
import Testing

/// The merge's output for seeded inputs is pinned bit for bit: every value, range, MAD, input, origin, outlier mark,
/// missing provider, disagreement, vote and confidence of every hour and day. A change that makes the merge faster
/// must leave these digests as they are; a change that means to alter the output rewrites them with
/// `ISOBAR_UPDATE_GOLDEN=1` (and says why).
@Suite("ConsensusV1: pinned output")
struct ConsensusPinnedOutputTests {
    static let seeds: [UInt64] = Array(1...48)

    @Test("seeded multi-provider merges give exactly the pinned output", arguments: seeds)
    func pinned(seed: UInt64) throws {
        let digests = PinnedMerge(seed: seed).digests()
        if ProcessInfo.processInfo.environment["ISOBAR_UPDATE_GOLDEN"] == "1" {
            PinnedDigestFile.record(seed: seed, digests)
            return
        }
        let expected = try #require(pinnedConsensusDigests[seed], "no pinned digest for seed \(seed)")
        #expect(digests == expected)
    }

    @Test("the dump sees a change in the last bit of one input")
    func dumpIsExact() {
        let merge = PinnedMerge(seed: 1)
        var changed = merge
        changed.reports[0].hourly[5].temperatureC = changed.reports[0].hourly[5].temperatureC!.nextUp
        #expect(merge.digests() == PinnedMerge(seed: 1).digests())
        #expect(merge.digests() != changed.digests())
    }
}

/// A seeded merge: 2–6 providers over four days, each with its own step length, quantities, noise, gross errors, days
/// (every daily quantity, or only the sun's times), current conditions, weights and families, in a named zone (one with a
/// change of time), a fixed offset, or a zone that cannot be loaded.
struct PinnedMerge {
    var place: Place
    var now: Date
    var reports: [WeatherReport]
    var weights: [String: Double] = [:]
    var sources: [String: SourceIdentity] = [:]
    var familyWeight = FamilyWeight.one
    var configuration = ConsensusConfiguration()

    init(seed: UInt64) {
        var generator = SeededGenerator(seed: seed &* 7919)
        let zones: [(String?, Int?)] = [
            ("America/New_York", -18_000), ("Asia/Tokyo", 32_400), ("Europe/Minsk", 10_800), ("Australia/Sydney", 39_600),
            (nil, 19_800), ("Mars/Olympus_Mons", -7_200), (nil, nil),
        ]
        let zone = zones[Int(seed) % zones.count]
        let place = Place(name: "P\(seed)", coordinate: Coordinate(latitude: 10, longitude: 20)!, utcOffsetSeconds: zone.1, timeZoneIdentifier: zone.0)
        self.place = place
        // Around New York's change of time, or an ordinary late-November stretch.
        let start = seed % 3 == 0 ? V1Fixture.utc(2026, 10, 31, 1) : V1Fixture.utc(2026, 11, 27)
        now = start.addingTimeInterval(Double(Int.random(in: -6...30, using: &generator)) * 3600 + 1_234)
        let count = Int.random(in: 2...6, using: &generator)
        reports = (0..<count).map { index in Self.report("p\(index)", place: place, start: start, &generator) }
        if seed % 2 == 0 {
            for index in 0..<count { weights["p\(index)"] = [0, 0.5, 1, 1.5, 2, 3].randomElement(using: &generator)! }
        }
        if seed % 4 == 1 {
            for index in 0..<count where index % 2 == 0 { sources["p\(index)"] = SourceIdentity(id: "p\(index)", name: "P\(index)", family: "f") }
            familyWeight = [FamilyWeight.one, .each, .atMost(2)].randomElement(using: &generator)!
        }
        if seed % 5 == 2 { configuration.minimumSources = 2 }
        if seed % 7 == 3 { configuration.maxInterpolationGapHours = 2 }
    }

    func merge() -> ConsensusResult {
        ConsensusV1.merge(reports, place: place, weights: weights, sources: sources, familyWeight: familyWeight, now: now, configuration: configuration)
    }

    /// Digests of the result's header, current conditions, hours and days.
    func digests() -> [String] {
        let result = merge()
        var header = PinnedDump()
        header.add("providers", result.providers.joined(separator: ","), "excluded", result.excluded.joined(separator: ","))
        for (id, weight) in result.weights.sorted(by: { $0.key < $1.key }) { header.add("weight", id, weight) }
        for (id, family) in result.families.sorted(by: { $0.key < $1.key }) { header.add("family", id, family) }
        for (id, weight) in result.mergeWeights.sorted(by: { $0.key < $1.key }) { header.add("merge_weight", id, weight) }
        header.add("zone", result.zone.description, "fallback", result.zoneFallbackReason ?? "-", "reference", result.referenceTime)
        var current = PinnedDump()
        if let hour = result.current { current.add(hour) }
        var hourly = PinnedDump()
        for hour in result.hourly { hourly.add(hour) }
        var daily = PinnedDump()
        for day in result.daily { daily.add(day) }
        return [header, current, hourly, daily].map(\.digest) + ["\(result.hourly.count)h \(result.daily.count)d"]
    }

    static func report(_ id: String, place: Place, start: Date, _ generator: inout SeededGenerator) -> WeatherReport {
        let every: Double = [1, 1, 3, 6].randomElement(using: &generator)!
        let present = Set(Quantity.weather.filter { _ in Double.random(in: 0..<1, using: &generator) < 0.8 })
        let spread = Double.random(in: 0.3...2, using: &generator)
        let derivedDewPoint = Bool.random(using: &generator)
        let gap = Int.random(in: 0..<40, using: &generator)
        var steps: [WeatherSample] = []
        for index in 0..<(Int(96 / every) + 1) where !(gap < 10 && (index >= gap && index < gap + 3)) {
            let hours = Double(index) * every
            var step = WeatherSample(time: start.addingTimeInterval(hours * 3600), periodHours: every)
            func value(_ quantity: Quantity, _ truth: Double, _ sigma: Double, decimals: Double = 10) -> Double? {
                guard present.contains(quantity) else { return nil }
                var noisy = truth + generator.normal(sigma: sigma * spread)
                if Double.random(in: 0..<1, using: &generator) < 0.05 { noisy += 6 * sigma * (Bool.random(using: &generator) ? 1 : -1) }
                return (noisy * decimals).rounded() / decimals
            }
            let phase = 2 * Double.pi * hours / 24
            step.temperatureC = value(.temperature, 5 + 4 * sin(phase), 1)
            step.apparentTemperatureC = value(.apparentTemperature, 3 + 4 * sin(phase), 1.5)
            step.humidityPercent = value(.humidity, 75 + 10 * cos(phase), 5, decimals: 1).map { min(100, max(0, $0)) }
            step.pressureHPa = value(.pressure, 1010 + 4 * sin(phase / 3), 1.5)
            step.windSpeedMS = value(.windSpeed, 5 + 2 * sin(phase), 1).map { max(0, $0) }
            step.windGustMS = value(.windGust, 9 + 3 * sin(phase), 1.5).map { max(0, $0) }
            step.windDirectionDeg = value(.windDirection, 350 + 40 * sin(phase), 25, decimals: 1).map { ($0 + 720).truncatingRemainder(dividingBy: 360) }
            step.cloudCoverPercent = value(.cloudCover, 60, 20, decimals: 1).map { min(100, max(0, $0)) }
            step.visibilityM = value(.visibility, 10_000, 3000, decimals: 0.01).map { max(0, $0) }
            step.dewPointC = value(.dewPoint, 1 + 3 * sin(phase), 1)
            if derivedDewPoint && step.dewPointC != nil { step.derivedQuantities = [.dewPoint] }
            step.uvIndex = value(.uvIndex, 3 * sin(phase), 0.5).map { max(0, $0) }
            if present.contains(.precipitationRate) {
                step.precipitationMM = Bool.random(using: &generator) ? 0 : (Double.random(in: 0..<3, using: &generator) * every * 10).rounded() / 10
            }
            if present.contains(.precipitationProbability) {
                step.precipitationProbabilityPercent = Double(Int.random(in: 0...10, using: &generator) * 10)
            }
            if Double.random(in: 0..<1, using: &generator) < 0.9 {
                step.condition = [.clear, .partlyCloudy, .cloudy, .fog, .drizzle, .rain, .snow].randomElement(using: &generator)!
            }
            steps.append(step)
        }
        if Double.random(in: 0..<1, using: &generator) < 0.2 { steps.shuffle(using: &generator) }
        let kind = Int.random(in: 0..<3, using: &generator)  // 0: no days, 1: full days, 2: the sun's times only
        var days: [DailyPoint] = []
        let first = LocalDate(start, utcOffsetSeconds: place.utcOffsetSeconds ?? 0)
        for offset in (kind == 0 ? 0..<0 : 0..<4) {
            var day = DailyPoint(date: LocalDate(daysSinceEpoch: first.daysSinceEpoch + offset))
            let noon = day.date.start(utcOffsetSeconds: place.utcOffsetSeconds ?? 0).timeIntervalSince1970 + 43_200
            day.sunrise = Date(timeIntervalSince1970: noon - 15_000 + Double(Int.random(in: -300...300, using: &generator)))
            day.sunset = Date(timeIntervalSince1970: noon + 15_000 + Double(Int.random(in: -300...300, using: &generator)))
            if Bool.random(using: &generator) {
                day.daylightDurationS = day.sunset!.timeIntervalSince(day.sunrise!)
            } else {
                day = DerivedQuantities.completed(day)
            }
            if kind == 1 {
                day.temperatureMaxC = (Double.random(in: 7...11, using: &generator) * 10).rounded() / 10
                day.temperatureMinC = (Double.random(in: -1...3, using: &generator) * 10).rounded() / 10
                day.precipitationMM = Bool.random(using: &generator) ? 0 : Double(Int.random(in: 0...20, using: &generator))
                day.precipitationProbabilityMaxPercent = Double(Int.random(in: 0...10, using: &generator) * 10)
                day.windSpeedMaxMS = Double.random(in: 4...9, using: &generator)
                if Bool.random(using: &generator) { day.windGustMaxMS = Double.random(in: 8...15, using: &generator) }
                day.windDirectionDominantDeg = Double(Int.random(in: 0..<360, using: &generator))
                day.uvIndexMax = Double(Int.random(in: 0...6, using: &generator))
                day.condition = Bool.random(using: &generator) ? .rain : .cloudy
                day.isDerived = Double.random(in: 0..<1, using: &generator) < 0.2
            }
            days.append(day)
        }
        var current: WeatherSample?
        if Bool.random(using: &generator) {
            var sample = WeatherSample(time: start.addingTimeInterval(Double(Int.random(in: 0...50, using: &generator)) * 60), periodHours: 1)
            sample.temperatureC = (Double.random(in: 0...8, using: &generator) * 10).rounded() / 10
            sample.windDirectionDeg = Double(Int.random(in: 0..<360, using: &generator))
            sample.precipitationMM = Bool.random(using: &generator) ? 0 : 0.4
            sample.uvIndex = Bool.random(using: &generator) ? 1 : nil
            sample.dewPointC = 2
            if Bool.random(using: &generator) { sample.derivedQuantities = [.dewPoint] }
            sample.condition = [.clear, .cloudy, .rain].randomElement(using: &generator)!
            current = sample
        }
        let offset = Bool.random(using: &generator) ? place.utcOffsetSeconds : nil
        return WeatherReport(
            providerID: id, place: place, fetchedAt: start, utcOffsetSeconds: offset, timeZoneIdentifier: place.timeZoneIdentifier,
            current: current, hourly: steps, daily: days)
    }
}

/// A canonical text of merged values (numbers as their exact bit patterns) and its 64-bit FNV-1a digest.
struct PinnedDump {
    private var text = ""

    mutating func add(_ items: Any...) {
        for item in items {
            switch item {
            case let number as Double: text += String(number.bitPattern, radix: 16)
            case let date as Date: text += String(date.timeIntervalSince1970.bitPattern, radix: 16)
            default: text += "\(item)"
            }
            text += " "
        }
        text += "\n"
    }

    mutating func add(_ hour: ConsensusHour) {
        add("hour", hour.time, hour.utcOffsetSeconds, hour.leadHours, hour.confidence ?? -1)
        for quantity in Quantity.allCases {
            if let field = hour[quantity] { add(quantity.rawValue, field) }
        }
        if let condition = hour.condition { add(condition) }
    }

    mutating func add(_ day: ConsensusDayV1) {
        add("day", day.date.daysSinceEpoch, day.start, day.end, day.utcOffsetSeconds, day.leadHours, day.confidence ?? -1)
        for quantity in DailyQuantity.allCases {
            if let field = day[quantity] { add(quantity.rawValue, field) }
        }
        if let condition = day.condition { add(condition) }
    }

    mutating func add(_ name: String, _ field: MergedField) {
        add(name, field.value, field.min, field.max, field.spread, field.medianAbsoluteDeviation, field.confidence,
            field.missing.joined(separator: ","))
        for input in field.inputs { add(input.provider, input.value, input.weight, "\(input.origin)", input.isOutlier) }
        if let disagreement = field.disagreement {
            add("disagreement", disagreement.difference, disagreement.floor, disagreement.exceedsFloor)
        }
    }

    mutating func add(_ condition: MergedConditionV1) {
        add("condition", "\(condition.value)", "\(condition.demotedFrom.map { "\($0)" } ?? "-")", condition.confidence,
            condition.missing.joined(separator: ","))
        for vote in condition.votes { add(vote.provider, "\(vote.condition)", vote.weight, "\(vote.origin)") }
    }

    var digest: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

/// Rewrites `ConsensusPinnedDigests.swift` (one test case at a time, so cases may run in any order).
enum PinnedDigestFile {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ConsensusPinnedDigests.swift").path
    private static let lock = NSLock()

    static func record(seed: UInt64, _ digests: [String]) {
        lock.lock()
        defer { lock.unlock() }
        var table = pinnedRecorded
        table[seed] = digests
        pinnedRecorded = table
        var source = "// Written by ConsensusPinnedOutputTests with ISOBAR_UPDATE_GOLDEN=1: digests of the merge's output for seeded inputs.\n"
        source += "// Per seed: header, current conditions, hours, days, then the counts of hours and days.\n"
        source += "let pinnedConsensusDigests: [UInt64: [String]] = [\n"
        for (seed, digests) in table.sorted(by: { $0.key < $1.key }) {
            source += "    \(seed): [\(digests.map { "\"\($0)\"" }.joined(separator: ", "))],\n"
        }
        source += "]\n"
        try? source.write(toFile: path, atomically: true, encoding: .utf8)
    }

    nonisolated(unsafe) private static var pinnedRecorded: [UInt64: [String]] = pinnedConsensusDigests
}
