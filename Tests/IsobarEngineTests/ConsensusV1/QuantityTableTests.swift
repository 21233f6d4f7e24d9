import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine
import Testing

/// Every quantity is one declaration (`Quantity.spec`, `DailyQuantity.spec`) that every part reads; these fail when a part
/// lacks an entry for one of them.
@Suite("Quantities: one declaration each")
struct QuantityTableTests {
    @Test("cache keys are distinct, and a report with every quantity set comes back from the cache exactly")
    func cacheKeys() throws {
        let hourlyKeys = Quantity.allCases.map(\.spec.cacheKey)
        #expect(Set(hourlyKeys).count == hourlyKeys.count)
        let dailyKeys = DailyQuantity.allCases.map(\.spec.cacheKey)
        #expect(Set(dailyKeys).count == dailyKeys.count)
        var sample = WeatherSample(time: Fixture.midnightUTC, periodHours: 1)
        for (index, quantity) in Quantity.allCases.enumerated() { sample[quantity] = quantity.spec.range.lowerBound + Double(index) / 8 }
        sample.derivedQuantities = [.dewPoint]
        var day = DailyPoint(date: Fixture.day)
        for (index, quantity) in DailyQuantity.allCases.enumerated() { day[quantity] = 1_795_850_000 / (quantity.dimension == .instant ? 1 : 1e6) + Double(index) }
        day.derivedQuantities = [.daylightDuration]
        let report = Fixture.report("p", current: sample, hourly: [sample], daily: [day])
        let decoded = try #require(ReportCodec.decode(ReportCodec.encode(report), place: Fixture.place))
        #expect(decoded == report)
        for quantity in Quantity.allCases { #expect(decoded.current?[quantity] != nil, "\(quantity) lost in the cache") }
        for quantity in DailyQuantity.allCases { #expect(decoded.daily.first?[quantity] != nil, "\(quantity) lost in the cache") }
    }

    @Test("the merge's floors are the declared ones")
    func floors() {
        let configuration = ConsensusConfiguration()
        for quantity in Quantity.allCases { #expect(configuration.floor(quantity) == quantity.spec.floor) }
        for quantity in DailyQuantity.allCases { #expect(configuration.floor(quantity) == quantity.spec.floor) }
    }

    @Test("every value outside its declared range is dropped with a warning naming it; inside, it stays")
    func validation() {
        for quantity in Quantity.allCases where quantity != .precipitationRate {
            var sample = WeatherSample(time: Fixture.midnightUTC, periodHours: 1)
            sample[quantity] = quantity.spec.range.upperBound + 1
            let checked = Fixture.report("p", current: sample).validated(now: Fixture.midnightUTC)
            #expect(checked.current?[quantity] == nil, "\(quantity) kept out of range")
            #expect(checked.warnings.count == 1 && checked.warnings[0].field.hasPrefix(quantity.rawValue), "\(quantity)")
            sample[quantity] = quantity.spec.range.lowerBound
            #expect(Fixture.report("p", current: sample).validated(now: Fixture.midnightUTC).current?[quantity] == quantity.spec.range.lowerBound)
        }
        for quantity in DailyQuantity.allCases where quantity.dimension != .instant {
            var day = DailyPoint(date: Fixture.day)
            day[quantity] = quantity.spec.range.upperBound + 1
            let checked = Fixture.report("p", daily: [day]).validated(now: Fixture.midnightUTC)
            #expect(checked.daily.first?[quantity] == nil, "\(quantity) kept out of range")
        }
    }

    @Test("every linear quantity is interpolated between 3-hour steps")
    func alignment() {
        let steps = [0.0, 3].map { hours in
            Fixture.step(hours) { sample in
                for quantity in Quantity.allCases where quantity.spec.interpolation == .linear { sample[quantity] = hours + 1 }
            }
        }
        let series = AlignedSeries(provider: "p", steps: steps)
        let middle = Fixture.midnightUTC.addingTimeInterval(3600)
        for quantity in Quantity.allCases where quantity.spec.interpolation == .linear {
            #expect(isClose(series.point(quantity, at: middle)?.value, 2), "\(quantity)")
        }
    }

    @Test("the JSON Schema has every quantity in each line type that carries it, with the type its unit writes")
    func schema() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent("schemas/isobar-lines-v1.schema.json")))
        let definitions = try JSONDocument(parsing: bytes).rootValue.member("$defs")
        let hourly = Quantity.weather.map { ($0.rawValue, $0.dimension) }
        let air = Quantity.air.map { ($0.rawValue, $0.dimension) }
        let daily = DailyQuantity.allCases.map { ($0.rawValue, $0.dimension) }
        // (where, the object, the quantities it carries, whether every one is required, what each property is)
        let objects: [(String, JSONValue, [(String, Dimension)], Bool, SchemaProperty)] = [
            ("units", try definitions.member("units"), hourly + daily, true, .unitSymbol),
            ("a provider's hour", try definitions.member("sample"), hourly, true, .value),
            ("a provider's day", try definitions.member("day"), daily, true, .value),
            ("a consensus hour", try definitions.member("consensus_hour"), hourly, true, .value),
            ("a consensus hour's merged", try definitions.member("consensus_hour").member("properties").member("merged"), hourly, true, .merged),
            ("a consensus day", try definitions.member("consensus_day"), daily, true, .value),
            ("a consensus day's merged", try definitions.member("consensus_day").member("properties").member("merged"), daily, true, .merged),
            ("archived values", try definitions.member("archive_values"), hourly, false, .archived),
            ("air units", try definitions.member("air_units"), air, true, .unitSymbol),
            ("an air instant", try definitions.member("air_moment"), air, true, .value),
            ("an air source", try definitions.member("air_source"), air, true, .value),
        ]
        for (place, object, quantities, allRequired, kind) in objects {
            let properties = try object.member("properties")
            let required = Set(try object.member(ifPresent: "required")?.stringsOrNulls().compactMap { $0 } ?? [])
            for (name, dimension) in quantities {
                guard let property = try properties.member(ifPresent: name) else {
                    Issue.record("the schema has no \(name) in \(place)")
                    continue
                }
                if allRequired { #expect(required.contains(name), "the schema does not require \(name) in \(place)") }
                #expect(try kind.matches(property, dimension), "\(name) in \(place) has the wrong type in the schema")
            }
        }
    }

    @Test("a provider without a quantity is listed as missing, never as 0")
    func missing() {
        let withUV = Fixture.report("om", current: Fixture.step(0) { $0.uvIndex = 3; $0.temperatureC = 1 })
        let without = Fixture.report("met", current: Fixture.step(0) { $0.temperatureC = 2 })
        let merged = ConsensusV1.merge([withUV, without], place: Fixture.place, now: Fixture.midnightUTC)
        #expect(merged.current?[.uvIndex]?.value == 3)
        #expect(merged.current?[.uvIndex]?.missing == ["met"])
        #expect(merged.current?[.uvIndex]?.inputs.map(\.provider) == ["om"])
    }
}

@Suite("Derived quantities")
struct DerivedQuantityTests {
    @Test("the Magnus dew point matches dew-point tables (over water) within 0.1 °C", arguments: [
        (20.0, 50.0, 9.3), (0.0, 100.0, 0.0), (30.0, 70.0, 23.9), (-10.0, 80.0, -12.8), (25.0, 10.0, -8.8),
    ])
    func magnus(temperature: Double, humidity: Double, dewPoint: Double) {
        #expect(isClose(DerivedQuantities.dewPoint(temperatureC: temperature, humidityPercent: humidity), dewPoint, 0.1))
    }

    @Test("no dew point from a humidity of 0 or above 100")
    func impossible() {
        #expect(DerivedQuantities.dewPoint(temperatureC: 10, humidityPercent: 0) == nil)
        #expect(DerivedQuantities.dewPoint(temperatureC: 10, humidityPercent: 101) == nil)
    }

    @Test("a computed dew point is marked derived and merged as such; a given one is kept")
    func marked() {
        let computed = Fixture.report("met", current: Fixture.step(0) { $0.temperatureC = 20; $0.humidityPercent = 50 },
                                      hourly: [Fixture.step(0) { $0.temperatureC = 20; $0.humidityPercent = 50 }])
            .completingDerivedQuantities()
        #expect(computed.current?.derivedQuantities == [.dewPoint])
        let given = Fixture.report("om", current: Fixture.step(0) { $0.dewPointC = 9; $0.temperatureC = 20; $0.humidityPercent = 50 },
                                   hourly: [Fixture.step(0) { $0.dewPointC = 9 }])
            .completingDerivedQuantities()
        #expect(given.current?.dewPointC == 9 && given.current?.derivedQuantities == [])
        let merged = ConsensusV1.merge([computed, given], place: Fixture.place, now: Fixture.midnightUTC)
        #expect(merged.current?[.dewPoint]?.inputs.map(\.origin) == [.derived, .given])
        #expect(merged.hourly.first?[.dewPoint]?.inputs.map(\.origin) == [.derived, .given])
    }

    @Test("daylight is sunset − sunrise when a provider gives both and no daylight, marked derived")
    func daylight() {
        var day = DailyPoint(date: Fixture.day)
        day.sunrise = Fixture.midnightUTC.addingTimeInterval(6 * 3600)
        day.sunset = Fixture.midnightUTC.addingTimeInterval(14 * 3600 + 30)
        let completed = DerivedQuantities.completed(day)
        #expect(isClose(completed.daylightDurationS, 8 * 3600 + 30, 1e-3))
        #expect(completed.derivedQuantities == [.daylightDuration])
        day.sunset = day.sunrise
        #expect(DerivedQuantities.completed(day).daylightDurationS == nil)
    }
}

@Suite("Moon phase")
struct MoonPhaseTests {
    /// Published new and full moons (UTC) of 2025–2027, several of them eclipses.
    static let newMoons = [
        "2025-01-29T12:36", "2025-03-29T10:58", "2025-09-21T19:54", "2026-02-17T12:01", "2026-08-12T17:37",
        "2027-02-06T15:56", "2027-08-02T10:05",
    ]
    static let fullMoons = [
        "2025-03-14T06:55", "2025-09-07T18:09", "2026-03-03T11:38", "2026-08-28T04:18", "2027-02-20T23:23", "2027-07-18T15:45",
    ]

    static func instant(_ text: String) -> Date { CivilTime.instant(localISO: text, utcOffsetSeconds: 0)! }

    /// Distance in days between a phase and a target fraction, around the month.
    static func days(_ phase: MoonPhase, from target: Double) -> Double {
        let difference = abs(phase.fraction - target)
        return min(difference, 1 - difference) * MoonPhase.synodicMonthDays
    }

    @Test("new moons are within an hour of the published times", arguments: newMoons)
    func newMoon(text: String) {
        let phase = MoonPhase(at: Self.instant(text))
        #expect(Self.days(phase, from: 0) < 1.0 / 24, "\(phase.fraction)")
        #expect(phase.name == "new moon" && phase.illumination < 0.02)
    }

    @Test("full moons are within an hour of the published times", arguments: fullMoons)
    func fullMoon(text: String) {
        let phase = MoonPhase(at: Self.instant(text))
        #expect(Self.days(phase, from: 0.5) < 1.0 / 24, "\(phase.fraction)")
        #expect(phase.name == "full moon" && phase.illumination > 0.98)
    }

    @Test("a week after new moon is near first quarter, waxing; the phase always grows through a month")
    func waxing() {
        let new = Self.instant("2026-02-17T12:01")
        let quarter = MoonPhase(at: new.addingTimeInterval(7.4 * 86_400))
        #expect(Self.days(quarter, from: 0.25) < 1)
        #expect(["first quarter", "waxing crescent", "waxing gibbous"].contains(quarter.name))
        var last = -1.0
        for hour in stride(from: 1.0, to: 29 * 24, by: 6) {
            let fraction = MoonPhase(at: new.addingTimeInterval(hour * 3600)).fraction
            #expect(fraction > last && fraction < 1)
            last = fraction
        }
    }
}

/// What a quantity's property in the schema holds.
private enum SchemaProperty {
    /// Its unit's symbol, a string.
    case unitSymbol
    /// Its value or null: a number, or for an instant a local time (a string).
    case value
    /// How it was merged: a merged field (an instant's, for an instant).
    case merged
    /// Its archived value, a number.
    case archived

    func matches(_ property: JSONValue, _ dimension: Dimension) throws -> Bool {
        let types: Set<String>
        if let type = try property.member(ifPresent: "type") {
            types = type.kind == .string ? [try type.string()] : Set(try type.stringsOrNulls().compactMap { $0 })
        } else {
            types = []
        }
        switch self {
        case .unitSymbol: return types == ["string"]
        case .value: return types == [dimension == .instant ? "string" : "number", "null"]
        case .archived: return types == ["number"]
        case .merged:
            let reference = try property.member(ifPresent: "$ref")?.string()
            return reference == (dimension == .instant ? "#/$defs/merged_instant_field" : "#/$defs/merged_field")
        }
    }
}
