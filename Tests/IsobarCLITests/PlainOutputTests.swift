import Foundation
@testable import IsobarCLI
import IsobarCore
import IsobarEngine
import Testing

@Suite struct PlainOutputTests {
    @Test func numbersAreSpokenWithMinusAndWithoutTrailingZeros() {
        #expect(PlainWords.spoken(-0.43, decimals: 1) == "minus 0.4")
        #expect(PlainWords.spoken(3.0, decimals: 1) == "3")
        #expect(PlainWords.spoken(-0.04, decimals: 1) == "0", "never minus 0")
        #expect(PlainWords.spoken(0.125, decimals: 2) == "0.13")
        #expect(PlainWords.spoken(1020.8, decimals: 1) == "1020.8")
        #expect(PlainWords.spoken(.nan, decimals: 1) == "–")
    }

    @Test func unitsAreSpelledOutInEverySystem() {
        #expect(PlainWords.measure(-0.43, .temperature, .metric) == "minus 0.4 degrees Celsius")
        #expect(PlainWords.measure(-17.78, .temperature, .imperial) == "0 degrees Fahrenheit")
        #expect(PlainWords.measure(0, .temperature, .standard) == "273.1 kelvin" || PlainWords.measure(0, .temperature, .standard) == "273.2 kelvin")
        #expect(PlainWords.measure(1, .speed, .metric) == "1 metre per second", "singular for one")
        #expect(PlainWords.measure(4.4704, .speed, .imperial) == "10 miles per hour")
        #expect(PlainWords.measure(1609.344, .distance, .imperial) == "1 mile")
        #expect(PlainWords.measure(25.4, .precipitationAmount, .imperial) == "1 inch")
        #expect(PlainWords.measure(2, .precipitationRate, .metric) == "2 millimetres per hour")
        #expect(PlainWords.measure(33.8639, .pressure, .imperial) == "1 inch of mercury")
        #expect(PlainWords.measure(50, .percent, .metric) == "50 percent")
        #expect(PlainWords.differenceUnit(.temperature, .imperial, singular: false) == "degrees")
    }

    @Test func directionsDatesAndListsAreWords() {
        #expect(PlainWords.direction(227) == "the south-west")
        #expect(PlainWords.direction(0) == "the north")
        #expect(PlainWords.direction(-90) == "the west")
        #expect(PlainWords.day(LocalDate(year: 2026, month: 11, day: 28)!) == "Saturday 28 November")
        #expect(PlainWords.list([]) == "")
        #expect(PlainWords.list(["a"]) == "a")
        #expect(PlainWords.list(["a", "b", "c"]) == "a, b and c")
    }

    @Test func plainOutputHasNoTableBoxDrawingOrEscape() async {
        for arguments in [["now", "Minsk", "--demo", "--plain"], ["compare", "Minsk", "--demo", "--plain"],
                          ["forecast", "Minsk", "--demo", "--plain", "--hourly", "--days", "1"], ["cities", "--demo", "--plain"]] {
            let run = await runCLI(arguments, environment: ["COLUMNS": "60"])
            #expect(run.code == 0, "\(arguments): \(run.stderr)")
            #expect(!run.stdout.contains("  "), "\(arguments): no column padding")
            #expect(!run.stdout.contains("\u{1B}"))
            let drawing = run.stdout.unicodeScalars.filter { (0x2500...0x25FF).contains($0.value) || $0 == "·" || $0 == "°" || $0 == "…" }
            #expect(drawing.isEmpty, "\(arguments): \(String(String.UnicodeScalarView(drawing)))")
            #expect(run.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix(".") || $0.hasSuffix(":") }, "\(arguments): sentences")
        }
    }

    @Test func aDumbTerminalGetsSentencesUnlessAChartIsAskedFor() async {
        let dumb = await runCLI(["now", "Minsk", "--demo"], environment: ["TERM": "dumb"])
        let plain = await runCLI(["now", "Minsk", "--demo", "--plain"])
        #expect(dumb.code == 0)
        #expect(dumb.stdout == plain.stdout)
        let chart = await runCLI(["forecast", "Minsk", "--demo", "--days", "1", "--chart"], environment: ["TERM": "dumb"])
        #expect(chart.stdout.contains("Daily consensus") && chart.stdout.contains("Next 48 hours"))
        let json = await runCLI(["now", "Minsk", "--demo", "--json"], environment: ["TERM": "dumb"])
        #expect(json.stdout.hasPrefix("{"), "TERM=dumb changes only output for people")
    }

    @Test(arguments: [
        (["now", "Minsk", "--plain", "--json"], "--plain is for people reading; it cannot be used with --format jsonl"),
        (["compare", "Minsk", "--chart", "--format", "csv"], "--chart is for people reading; it cannot be used with --format csv"),
        (["forecast", "Minsk", "--chart", "--plain"], "--plain writes sentences without charts; it cannot be used with --chart"),
        (["forecast", "Minsk", "--ascii"], "--ascii chooses the characters of a chart; it needs --chart"),
        (["now", "Minsk", "--chart"], "unknown option"),
    ])
    func badCombinationsAreUsageErrors(_ arguments: [String], _ message: String) async {
        let run = await runCLI(arguments + ["--demo"])
        #expect(run.code == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test func failuresAreSentencesToo() async {
        let run = await runCLI(["now", "Minsk", "--config", dataDirectory + "/isobar.json", "--plain"])
        #expect(run.code == ExitCode.noneAnswered.rawValue)
        #expect(run.lines.first == "No provider answered for Minsk, Minsk City, BY.")
        #expect(run.lines.contains { $0.hasPrefix("OpenWeatherMap did not answer: not configured, ") && $0.hasSuffix(".") }, "\(run.stdout)")
    }

    @Test func nowInPlainWordsSaysTheSpreadAndTheUmbrella() async {
        let run = await runCLI(["now", "Minsk", "--demo", "--plain"])
        let lines = run.lines
        #expect(lines.first?.hasPrefix("Minsk, Minsk City, BY, now at 12:00: snow, minus 0.1 degrees Celsius, feels like minus 4.2.") == true,
                "\(lines)")
        #expect(lines.contains("Wind from the south-west at 2.6 metres per second, gusts 6."))
        #expect(lines.contains("The 3 providers agree within 1 degree."))
        #expect(lines.contains { $0.hasSuffix("percent chance.") || $0.hasPrefix("No rain is expected") })
    }
}

@Suite struct GlanceTests {
    static let today = LocalDate(year: 2026, month: 11, day: 28)!
    static let start = Date(timeIntervalSince1970: 1_795_867_200)  // 2026-11-28 12:00 UTC

    /// Hours after 12:00 UTC at UTC+3 with these chances (nil: no chance given) and conditions.
    static func hours(_ chances: [Double?], condition: Condition? = nil) -> [ConsensusHour] {
        chances.enumerated().map { index, chance in
            var values: [Quantity: MergedField] = [:]
            if let chance {
                values[.precipitationProbability] = MergedField(value: chance, min: chance, max: chance, spread: 0, medianAbsoluteDeviation: 0,
                                                                inputs: [ProviderValue(provider: "a", value: chance)], confidence: 0.5)
            }
            let merged = condition.map { MergedConditionV1(value: $0, votes: [], confidence: 0.5) }
            return ConsensusHour(time: start.addingTimeInterval(Double(index + 1) * 3600), utcOffsetSeconds: 10_800, leadHours: Double(index + 1),
                                 values: values, condition: merged, confidence: 0.5)
        }
    }

    @Test func theFirstHourAtFiftyPercentOrMoreIsNamedOnTheLocalClock() throws {
        let clause = try #require(Umbrella.clause(GlanceInput(hoursAhead: Self.hours([10, 49.4, 50, 90]), today: Self.today)))
        #expect(clause.short == "rain likely at 18:00 (chance 50 %)")
        #expect(clause.spoken == "Rain is likely at 18:00, a 50 percent chance.")
        #expect(Glance.line(GlanceInput(hoursAhead: Self.hours([80]), today: Self.today)) == "At a glance: rain likely at 16:00 (chance 80 %)\n")
    }

    @Test func snowAndTomorrowAreSaid() throws {
        let late = Array(repeating: 0.0, count: 10) + [70]
        let clause = try #require(Umbrella.clause(GlanceInput(hoursAhead: Self.hours(late, condition: .snow), today: Self.today)))
        #expect(clause.short == "snow likely at Sun 02:00 (chance 70 %)")
        #expect(clause.spoken == "Snow is likely at 02:00 on Sunday, a 70 percent chance.")
    }

    @Test func onlyTheNextTwelveHoursCount() throws {
        let clause = try #require(Umbrella.clause(GlanceInput(hoursAhead: Self.hours(Array(repeating: 0, count: 12) + [100]), today: Self.today)))
        #expect(clause.short == "no rain expected in the next 12 hours")
        #expect(clause.spoken == "No rain is expected in the next 12 hours.")
        let short = try #require(Umbrella.clause(GlanceInput(hoursAhead: Self.hours([0, 0, 0]), today: Self.today)))
        #expect(short.short == "no rain expected in the next 3 hours", "fewer hours known, fewer said")
    }

    @Test func noChanceGivenOrNoHoursAreNotDry() {
        let none = Umbrella.clause(GlanceInput(hoursAhead: Self.hours([nil, nil]), today: Self.today))
        #expect(none?.short == "no chance of precipitation given for the next 2 hours")
        #expect(Umbrella.clause(GlanceInput(hoursAhead: [], today: Self.today)) == nil)
        #expect(Glance.line(GlanceInput(hoursAhead: [], today: Self.today)) == nil)
        #expect(Glance.sentences(GlanceInput(hoursAhead: [], today: Self.today)) == nil)
    }
}

@Suite struct PlainAgreementTests {
    static let place = Place(name: "Minsk", adminArea: "Minsk City", countryCode: "BY", coordinate: Coordinate(latitude: 53.9, longitude: 27.57)!)

    static func sentences(_ units: UnitSystem = .metric) -> PlainSentences {
        let context = RenderContext(view: .now, place: place, units: units, providers: [("a", "Alpha"), ("b", "Beta"), ("c", "Gamma")],
                                    color: false, now: Date(timeIntervalSince1970: 1_795_867_200))
        let consensus = ConsensusResult(place: place, providers: ["a", "b", "c"], weights: [:], referenceTime: context.now, zone: .fixedOffset(seconds: 0),
                                        current: nil, hourly: [], daily: [])
        return PlainSentences(context: context, consensus: consensus)
    }

    static func field(_ values: [(String, Double, Bool)], disagreement: Disagreement? = nil) -> MergedField {
        let numbers = values.map(\.1)
        return MergedField(value: numbers.sorted()[numbers.count / 2], min: numbers.min()!, max: numbers.max()!,
                           spread: numbers.max()! - numbers.min()!, medianAbsoluteDeviation: 0,
                           inputs: values.map { ProviderValue(provider: $0.0, value: $0.1, isOutlier: $0.2) }, disagreement: disagreement,
                           confidence: 0.5)
    }

    @Test func closeProvidersAgreeWithinTheSpreadRoundedUp() {
        let sentences = Self.sentences()
        #expect(sentences.agreement(Self.field([("a", 0.04, false), ("b", -0.9, false)]), .temperature) == "The 2 providers agree within 1 degree.")
        #expect(sentences.agreement(Self.field([("a", 1, false), ("b", 1, false)]), .temperature) == "The 2 providers agree.")
        #expect(Self.sentences(.imperial).agreement(Self.field([("a", 0, false), ("b", 1, false)]), .temperature)
                == "The 2 providers agree within 2 degrees.", "1 °C apart is 1.8 °F")
    }

    @Test func outliersAndDisagreementsAreSaidWithEachValue() {
        let sentences = Self.sentences()
        let outlier = Self.field([("a", 1, false), ("b", 1.2, false), ("c", -6, true)])
        #expect(sentences.agreement(outlier, .temperature)
                == "The providers differ: Alpha 1, Beta 1.2 and Gamma minus 6; Gamma left out as an outlier.")
        let apart = Self.field([("a", 1, false), ("b", 4.5, false)], disagreement: Disagreement(difference: 3.5, floor: 2, exceedsFloor: true))
        #expect(sentences.agreement(apart, .temperature) == "The providers disagree by 3.5 degrees: Alpha 1 and Beta 4.5.")
    }

    @Test func oneProviderOrNoneIsSaid() {
        let sentences = Self.sentences()
        #expect(sentences.agreement(Self.field([("b", 2, false)]), .temperature) == "From one provider, Beta.")
        #expect(sentences.agreement(nil, .temperature) == "No provider gave a temperature.")
    }
}

@Suite struct PlainUnitTests {
    @Test(arguments: UnitSystem.allCases)
    func everyUnitOfEverySystemIsSpelledOut(_ units: UnitSystem) {
        for dimension in Dimension.allCases {
            let many = PlainWords.unit(dimension, units)
            #expect(many != units.symbol(dimension) && many.allSatisfy { $0.isLetter || $0 == " " }, "\(units) \(dimension): \(many)")
        }
    }
}
