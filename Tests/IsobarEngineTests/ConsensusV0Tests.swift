import FoundationEssentials
import IsobarCore
import IsobarEngine
import Testing

@Suite("ConsensusV0")
struct ConsensusV0Tests {
    // MARK: Numbers

    @Test func medianOfOddAndEvenCounts() {
        #expect(ConsensusV0.median([3, 1, 2]) == 2)
        #expect(ConsensusV0.median([10, -4, 7, 7, 0]) == 7)
        #expect(ConsensusV0.median([1, 10, 2, 3]) == 2.5)
        #expect(ConsensusV0.median([-1, 1]) == 0)
        #expect(ConsensusV0.median([4.5]) == 4.5)
    }

    @Test func mergeOfAnOddCount() throws {
        let merged = try #require(ConsensusV0.merge([("a", 3), ("b", 1), ("c", 2)]))
        #expect(merged.fields == Merged(value: 2, min: 1, max: 3, spread: 2, providers: ["a", "b", "c"]))
    }

    @Test func mergeOfAnEvenCount() throws {
        let merged = try #require(ConsensusV0.merge([("a", 1), ("b", 10), ("c", 2), ("d", 3)]))
        #expect(merged.value == 2.5)
        #expect(merged.min == 1)
        #expect(merged.max == 10)
        #expect(merged.spread == 9)
        #expect(merged.providers == ["a", "b", "c", "d"])
    }

    @Test func mergeOfOneAndOfNone() throws {
        #expect(ConsensusV0.merge([]) == nil)
        #expect(ConsensusV0.merge([], circular: true) == nil)
        #expect(try #require(ConsensusV0.merge([("only", -2.5)])).fields == Merged(value: -2.5, min: -2.5, max: -2.5, spread: 0, providers: ["only"]))
    }

    @Test func directionsMergeAroundTheCircle() throws {
        let merged = try #require(ConsensusV0.merge([("a", 350), ("b", 10)], circular: true))
        #expect((0..<360).contains(merged.value), "circular mean \(merged.value) is outside 0..<360")
        #expect(circularDistance(merged.value, 0) < 1e-9)
        #expect(merged.min == 350)
        #expect(merged.max == 10)
        #expect(merged.spread == 20)
        #expect(merged.providers == ["a", "b"])
    }

    @Test func directionsWithoutWrapping() throws {
        let merged = try #require(ConsensusV0.merge([("a", 80), ("b", 100), ("c", 90)], circular: true))
        #expect(isClose(merged.value, 90))
        #expect(merged.min == 80)
        #expect(merged.max == 100)
        #expect(merged.spread == 20)
    }

    @Test func oppositeDirectionsFallBackToTheArcStart() throws {
        let merged = try #require(ConsensusV0.merge([("a", 0), ("b", 180)], circular: true))
        #expect(merged.value == merged.min)
        #expect(merged.spread == 180)
    }

    // MARK: Current conditions

    @Test func currentConditionsAreMergedPerQuantity() throws {
        let early = Fixture.midnightUTC
        let late = early.addingTimeInterval(600)
        let a = Fixture.report("a", current: Fixture.step(0, after: early, period: 1) { sample in
            sample.temperatureC = 20; sample.humidityPercent = 60; sample.windDirectionDeg = 350; sample.condition = .rain
            sample.precipitationMM = 0.6
        })
        let b = Fixture.report("b", current: Fixture.step(0, after: late, period: 3) { sample in
            sample.temperatureC = 27; sample.windDirectionDeg = 10; sample.condition = .snow; sample.precipitationMM = 1.5
        })
        let c = Fixture.report("c", current: Fixture.step(0, after: early) { sample in
            sample.temperatureC = 22; sample.humidityPercent = 70
        })
        let consensus = ConsensusV0.merge([a, b, c], place: Fixture.place)
        let current = try #require(consensus.current)
        #expect(current.time == late)
        #expect(current.values[.temperature]?.fields == Merged(value: 22, min: 20, max: 27, spread: 7, providers: ["a", "b", "c"]))
        #expect(current.values[.humidity]?.fields == Merged(value: 65, min: 60, max: 70, spread: 10, providers: ["a", "c"]))
        // 0.6 mm over 1 h and 1.5 mm over 3 h: rates 0.6 and 0.5 mm/h.
        let rate = try #require(current.values[.precipitationRate])
        #expect(isClose(rate.value, 0.55))
        #expect(rate.providers == ["a", "b"])
        let wind = try #require(current.values[.windDirection])
        #expect(circularDistance(wind.value, 0) < 1e-9)
        #expect((0..<360).contains(wind.value), "wind direction \(wind.value) is outside 0..<360")
        #expect(wind.spread == 20)
        // Absent from every provider: absent from the consensus.
        for quantity in [Quantity.pressure, .windSpeed, .windGust, .visibility, .cloudCover, .apparentTemperature, .precipitationProbability] {
            #expect(current.values[quantity] == nil, "\(quantity)")
        }
        #expect(current.values.count == 4)
        let condition = try #require(current.condition)
        #expect(condition.condition == .snow)
        #expect(condition.votes.map(\.provider) == ["a", "b"])
        #expect(condition.votes.map(\.condition) == [.rain, .snow])
    }

    @Test func conditionVoteMajorityWinsOverSeverity() throws {
        let reports = [
            Fixture.report("a", current: Fixture.step(0) { $0.condition = .cloudy }),
            Fixture.report("b", current: Fixture.step(0) { $0.condition = .thunderstorm }),
            Fixture.report("c", current: Fixture.step(0) { $0.condition = .cloudy }),
        ]
        let condition = try #require(ConsensusV0.merge(reports, place: Fixture.place).current?.condition)
        #expect(condition.condition == .cloudy)
        #expect(condition.votes.count == 3)
    }

    @Test func noConditionAndNoCurrent() {
        let consensus = ConsensusV0.merge([Fixture.report("a", current: Fixture.step(0) { $0.temperatureC = 1 }), Fixture.report("b")], place: Fixture.place)
        #expect(consensus.current?.condition == nil)
        #expect(consensus.current?.values[.temperature]?.providers == ["a"])
        #expect(ConsensusV0.merge([Fixture.report("a"), Fixture.report("b")], place: Fixture.place).current == nil)
    }

    // MARK: Steps

    @Test func stepsAlignOnIdenticalInstantsOnly() throws {
        // Hourly provider "h" at +1 h … +6 h; three-hourly provider "t" at +3 h, +6 h and +9 h, and one step a second off the hour.
        let hourly = (1...6).map { hour in Fixture.step(Double(hour)) { $0.temperatureC = Double(hour) } }
        let threeHourly = [3.0, 6, 9].map { hour in Fixture.step(hour, period: 3) { $0.temperatureC = hour + 10 } }
            + [Fixture.step(0, after: Fixture.midnightUTC.addingTimeInterval(14_401), period: 3) { $0.temperatureC = 100 }]
        let consensus = ConsensusV0.merge([Fixture.report("h", hourly: hourly), Fixture.report("t", hourly: threeHourly.sorted { $0.time < $1.time })],
                                          place: Fixture.place)
        let offsets = consensus.hourly.map { $0.time.timeIntervalSince(Fixture.midnightUTC) }
        #expect(offsets == [3600, 7200, 10_800, 14_400, 14_401, 18_000, 21_600, 32_400])
        let providers = consensus.hourly.map { $0.values[.temperature]?.providers ?? [] }
        #expect(providers == [["h"], ["h"], ["h", "t"], ["h"], ["t"], ["h"], ["h", "t"], ["t"]])
        let values = consensus.hourly.map { $0.values[.temperature]?.value }
        // At +3 h: median of 3 and 13 = 8; at +6 h: median of 6 and 16 = 11.
        #expect(values == [1, 2, 8, 4, 100, 5, 11, 19])
        #expect(consensus.hourly[2].values[.temperature]?.spread == 10)
    }

    // MARK: Days

    @Test func nativeDaysAreUsedAndOthersAreComputedFromSteps() throws {
        // "native" gives its own days; "steps" gives three-hourly steps covering 2026-11-28 in UTC+3
        // (local midnight is 21:00Z on the 27th, so the day's steps end at 00:00Z … 21:00Z on the 28th).
        let localMidnight = Fixture.midnightUTC.addingTimeInterval(-3 * 3600)
        let stepTemperatures: [Double] = [2, 1, 0, 3, 6, 8, 5, 4]
        let steps = stepTemperatures.enumerated().map { index, temperature in
            Fixture.step(Double(3 * (index + 1)), after: localMidnight, period: 3) { sample in
                sample.temperatureC = temperature
                sample.precipitationMM = index == 4 ? 1.5 : 0
                sample.windSpeedMS = Double(index)
                sample.condition = index < 5 ? .cloudy : .rain
            }
        }
        var nativeDay = DailyPoint(date: Fixture.day)
        nativeDay.temperatureMaxC = 10
        nativeDay.temperatureMinC = -2
        nativeDay.precipitationMM = 0.5
        nativeDay.condition = .snow
        var nativeNextDay = DailyPoint(date: LocalDate(daysSinceEpoch: Fixture.day.daysSinceEpoch + 1))
        nativeNextDay.temperatureMaxC = 4

        // The "native" provider also has steps; they must not be turned into days.
        let nativeSteps = (1...30).map { hour in Fixture.step(Double(hour), after: localMidnight) { $0.temperatureC = 50 } }
        let consensus = ConsensusV0.merge(
            [Fixture.report("native", utcOffsetSeconds: 10_800, hourly: nativeSteps, daily: [nativeDay, nativeNextDay]),
             Fixture.report("steps", utcOffsetSeconds: 10_800, hourly: steps)],
            place: Fixture.place)

        #expect(consensus.daily.map(\.date) == [Fixture.day, LocalDate(daysSinceEpoch: Fixture.day.daysSinceEpoch + 1)])
        let day = consensus.daily[0]
        #expect(day.values[.temperatureMax]?.fields == Merged(value: 9, min: 8, max: 10, spread: 2, providers: ["native", "steps"]))
        #expect(day.values[.temperatureMin]?.fields == Merged(value: -1, min: -2, max: 0, spread: 2, providers: ["native", "steps"]))
        #expect(day.values[.precipitationSum]?.fields == Merged(value: 1, min: 0.5, max: 1.5, spread: 1, providers: ["native", "steps"]))
        #expect(day.values[.windSpeedMax]?.fields == Merged(value: 7, min: 7, max: 7, spread: 0, providers: ["steps"]))
        #expect(day.values[.windGustMax] == nil)
        // snow (native) against cloudy (5 of the 8 steps): a tie between providers goes to the more severe.
        #expect(day.condition?.condition == .snow)
        #expect(day.condition?.votes.map(\.provider) == ["native", "steps"])
        #expect(day.condition?.votes.map(\.condition) == [.snow, .cloudy])
        let next = consensus.daily[1]
        #expect(next.values[.temperatureMax]?.fields == Merged(value: 4, min: 4, max: 4, spread: 0, providers: ["native"]))
        #expect(next.condition == nil)
    }

    @Test func reportWithoutAnOffsetUsesTheConsensusOffsetForItsDays() throws {
        // 24 hourly steps covering 2026-11-28 in UTC+3 only; in UTC they would straddle two days and make none complete.
        let localMidnight = Fixture.midnightUTC.addingTimeInterval(-3 * 3600)
        let steps = (1...24).map { hour in Fixture.step(Double(hour), after: localMidnight) { $0.temperatureC = Double(hour) } }
        let consensus = ConsensusV0.merge([Fixture.report("zoned", utcOffsetSeconds: 10_800), Fixture.report("plain", hourly: steps)],
                                          place: Fixture.place)
        #expect(consensus.utcOffsetSeconds == 10_800)
        #expect(consensus.daily.map(\.date) == [Fixture.day])
        #expect(consensus.daily.first?.values[.temperatureMax]?.value == 24)
        #expect(consensus.daily.first?.values[.temperatureMin]?.value == 1)
    }

    // MARK: Offset, zone and providers

    @Test func offsetAndZoneComeFromTheFirstReportThatHasThem() {
        var second = Fixture.report("b", utcOffsetSeconds: 3600)
        second.timeZoneIdentifier = "Europe/Berlin"
        var third = Fixture.report("c", utcOffsetSeconds: 7200)
        third.timeZoneIdentifier = "Europe/Kyiv"
        let consensus = ConsensusV0.merge([Fixture.report("a"), second, third], place: Fixture.place)
        #expect(consensus.utcOffsetSeconds == 3600)
        #expect(consensus.timeZoneIdentifier == "Europe/Berlin")
        #expect(consensus.providers == ["a", "b", "c"])
    }

    @Test func offsetAndZoneFallBackToThePlace() {
        let consensus = ConsensusV0.merge([Fixture.report("a"), Fixture.report("b")], place: Fixture.place)
        #expect(consensus.utcOffsetSeconds == 10_800)
        #expect(consensus.timeZoneIdentifier == "Europe/Minsk")
        var unknown = Fixture.place
        unknown.utcOffsetSeconds = nil
        unknown.timeZoneIdentifier = nil
        let bare = ConsensusV0.merge([Fixture.report("a")], place: unknown)
        #expect(bare.utcOffsetSeconds == 0)
        #expect(bare.timeZoneIdentifier == nil)
        #expect(bare.place == unknown)
    }

    @Test func zeroOffsetFromAReportIsNotTreatedAsMissing() {
        let consensus = ConsensusV0.merge([Fixture.report("utc", utcOffsetSeconds: 0)], place: Fixture.place)
        #expect(consensus.utcOffsetSeconds == 0)
    }
}
