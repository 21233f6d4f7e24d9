import Foundation
@testable import IsobarCLI
@testable import IsobarConsensus
import IsobarCore
import IsobarEngine
@testable import IsobarRender
import Testing

/// The compare table's Spread counts the values that made the consensus, and says what an outlier adds.
@Suite struct SpreadWithoutOutliersTests {
    static func field(_ values: [(Double, Bool)]) -> MergedField {
        let numbers = values.map(\.0)
        return MergedField(value: numbers[0], min: numbers.min()!, max: numbers.max()!, spread: numbers.max()! - numbers.min()!,
                           medianAbsoluteDeviation: 0,
                           inputs: values.enumerated().map { ProviderValue(provider: "p\($0.offset)", value: $0.element.0, isOutlier: $0.element.1) },
                           confidence: 0.5)
    }

    @Test func theSpreadLeavesOutliersOut() {
        let minsk = Self.field([(0, false), (-0.5, false), (2.9, true), (-1.6, false), (-0.1, false)])
        #expect(abs(minsk.spread - 4.5) < 1e-9, "the consensus's spread still counts every input")
        #expect(abs(minsk.spreadWithoutOutliers(circular: false) - 1.6) < 1e-9)
        let agreeing = Self.field([(0, false), (-0.5, false), (1, false)])
        #expect(agreeing.spreadWithoutOutliers(circular: false) == agreeing.spread)
        let allLeftOut = Self.field([(0, true), (3, true)])
        #expect(allLeftOut.spreadWithoutOutliers(circular: false) == allLeftOut.spread)
    }

    @Test func directionsMeasureTheSmallestArcOfTheRest() {
        // 350°, 10° and 20° span 30° across north; 180° left out.
        var field = Self.field([(350, false), (10, false), (20, false), (180, true)])
        field.spread = 190
        #expect(abs(field.spreadWithoutOutliers(circular: true) - 30) < 1e-9)
        #expect(MergedField.arcWidth([90]) == 0)
        #expect(abs(MergedField.arcWidth([0, 120, 240]) - 240) < 1e-9)
        #expect(MergedField.arcWidth([]) == 0)
    }

    @Test func aNarrowTableKeepsTheSpreadWithoutOutliersAndTheStar() {
        #expect(Abbreviation.spreadWithoutAllValues("1.6 (4.5 with *)") == "1.6*")
        #expect(Abbreviation.spreadWithoutAllValues("1.6 (4.5 with *) !") == "1.6* !")
        #expect(Abbreviation.spreadWithoutAllValues("4.2 !") == "4.2 !")
        #expect(Abbreviation.spreadWithoutAllValues("27°") == "27°")
    }

    /// The table's row for `label` (the first cell; in a table in parts, the last part's), split on runs of spaces.
    static func row(_ text: String, _ label: String) -> [String] {
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix(label + " ") }) else { return [] }
        return line.dropFirst(label.count).split(separator: "  ", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test func minsksSpreadLeavesGFSOutAtEveryWidth() async throws {
        let wide = await runCLI(["compare", "Minsk", "--demo"])
        #expect(wide.code == 0, "\(wide.stderr)")
        // GFS's 2.9 °C is left out of the consensus (-0.1), so the Spread is that of the other four: 0.0 − (−1.6).
        #expect(Self.row(wide.stdout, "Temperature (°C)").suffix(3) == ["-0.1", "1.6 (4.5 with *)", "50%"], "\(wide.stdout)")
        #expect(Self.row(wide.stdout, "Dew point (°C)").suffix(3) == ["-0.6", "1.4 (4.5 with *)", "58%"])
        // No outlier: the spread of every value, as before.
        #expect(Self.row(wide.stdout, "Humidity (%)").suffix(3) == ["98", "4", "77%"])
        #expect(wide.stdout.contains("* left out of the consensus and of the Spread as an outlier\n"))
        let narrow = await runCLI(["compare", "Minsk", "--demo"], environment: ["COLUMNS": "60"])
        #expect(Self.row(narrow.stdout, "Temp °C").suffix(4) == ["-0.1", "-0.1", "1.6*", "50%"], "\(narrow.stdout)")
        #expect(narrow.stdout.split(separator: "\n").allSatisfy { $0.count <= 60 })
    }

    @Test func withNoOutlierTheSpreadIsEveryValues() async throws {
        let run = await runCLI(["compare", "Tokyo", "--demo"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("with *") && !run.stdout.contains("left out of the consensus"), "\(run.stdout)")
        // 14.0 (OpenWeatherMap) − 12.5 (ICON).
        #expect(Self.row(run.stdout, "Temperature (°C)").dropLast().last == "1.5", "\(run.stdout)")
    }

    @Test func nowSaysTheSpreadWithoutTheOutlier() async throws {
        let run = await runCLI(["now", "Minsk", "--demo"])
        #expect(run.stdout.contains("(spread 1.6 °C without Open-Meteo GFS, left out as an outlier)"), "\(run.stdout)")
    }
}
