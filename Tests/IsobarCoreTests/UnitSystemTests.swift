import IsobarCore
import Testing

@Suite("UnitSystem and UnitConversion")
struct UnitSystemTests {
    private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    @Test(arguments: [
        (UnitSystem.metric, Dimension.temperature, "°C"), (.imperial, .temperature, "°F"), (.standard, .temperature, "K"),
        (.metric, .percent, "%"), (.imperial, .percent, "%"), (.standard, .percent, "%"),
        (.metric, .pressure, "hPa"), (.imperial, .pressure, "inHg"), (.standard, .pressure, "hPa"),
        (.metric, .speed, "m/s"), (.imperial, .speed, "mph"), (.standard, .speed, "m/s"),
        (.metric, .direction, "°"), (.imperial, .direction, "°"), (.standard, .direction, "°"),
        (.metric, .distance, "km"), (.imperial, .distance, "mi"), (.standard, .distance, "m"),
        (.metric, .precipitationRate, "mm/h"), (.imperial, .precipitationRate, "in/h"), (.standard, .precipitationRate, "mm/h"),
        (.metric, .precipitationAmount, "mm"), (.imperial, .precipitationAmount, "in"), (.standard, .precipitationAmount, "mm"),
    ])
    func symbols(system: UnitSystem, dimension: Dimension, symbol: String) {
        #expect(system.symbol(dimension) == symbol)
    }

    @Test func temperatures() {
        #expect(UnitSystem.metric.convert(0, .temperature) == 0)
        #expect(UnitSystem.imperial.convert(0, .temperature) == 32)
        #expect(UnitSystem.standard.convert(0, .temperature) == 273.15)
        #expect(UnitSystem.imperial.convert(100, .temperature) == 212)
        #expect(UnitSystem.imperial.convert(-40, .temperature) == -40)
        #expect(close(UnitSystem.standard.convert(-273.15, .temperature), 0))
    }

    @Test func speedPressureDistanceAndPrecipitation() {
        // 10 / 0.44704 = 22.3693629…
        #expect(close(UnitSystem.imperial.convert(10, .speed), 22.369, 0.0005))
        #expect(UnitSystem.metric.convert(10, .speed) == 10)
        #expect(UnitSystem.standard.convert(10, .speed) == 10)
        // 1013.25 / 33.8639 = 29.9212…
        #expect(close(UnitSystem.imperial.convert(1013.25, .pressure), 29.92, 0.005))
        #expect(UnitSystem.metric.convert(1013.25, .pressure) == 1013.25)
        #expect(close(UnitSystem.imperial.convert(1609.344, .distance), 1))
        #expect(close(UnitSystem.metric.convert(1609.344, .distance), 1.609344))
        #expect(UnitSystem.standard.convert(1609.344, .distance) == 1609.344)
        #expect(close(UnitSystem.imperial.convert(25.4, .precipitationAmount), 1))
        #expect(close(UnitSystem.imperial.convert(25.4, .precipitationRate), 1))
        #expect(UnitSystem.metric.convert(25.4, .precipitationAmount) == 25.4)
    }

    @Test(arguments: UnitSystem.allCases)
    func percentagesAndDirectionsNeverChange(system: UnitSystem) {
        #expect(system.convert(55, .percent) == 55)
        #expect(system.convert(270, .direction) == 270)
        #expect(system.convertDifference(20, .direction) == 20)
    }

    @Test func temperatureSpreadsScaleWithoutOffset() {
        #expect(UnitSystem.metric.convertDifference(1, .temperature) == 1)
        #expect(UnitSystem.imperial.convertDifference(1, .temperature) == 1.8)
        #expect(UnitSystem.standard.convertDifference(1, .temperature) == 1)
        #expect(UnitSystem.imperial.convertDifference(0, .temperature) == 0)
        #expect(UnitSystem.imperial.convertDifference(2.5, .temperature) == 4.5)
    }

    @Test func otherSpreadsUseTheScale() {
        #expect(close(UnitSystem.imperial.convertDifference(10, .speed), 22.369, 0.0005))
        #expect(close(UnitSystem.metric.convertDifference(1500, .distance), 1.5))
        #expect(close(UnitSystem.imperial.convertDifference(25.4, .precipitationAmount), 1))
    }

    @Test func decimals() {
        #expect(UnitSystem.metric.decimals(.temperature) == 1)
        #expect(UnitSystem.metric.decimals(.percent) == 0)
        #expect(UnitSystem.imperial.decimals(.direction) == 0)
        #expect(UnitSystem.imperial.decimals(.pressure) == 2)
        #expect(UnitSystem.metric.decimals(.pressure) == 1)
        #expect(UnitSystem.standard.decimals(.distance) == 0)
        #expect(UnitSystem.imperial.decimals(.precipitationAmount) == 2)
    }

    @Test func conversionsIntoInternalUnits() {
        #expect(close(UnitConversion.celsius(fromKelvin: 273.15), 0))
        #expect(close(UnitConversion.celsius(fromKelvin: 300), 26.85, 1e-9))
        #expect(UnitConversion.celsius(fromFahrenheit: 32) == 0)
        #expect(UnitConversion.celsius(fromFahrenheit: 212) == 100)
        #expect(close(UnitConversion.metresPerSecond(fromMilesPerHour: 22.369362920544024), 10))
        #expect(UnitConversion.metresPerSecond(fromKilometresPerHour: 36) == 10)
        #expect(close(UnitConversion.metresPerSecond(fromKnots: 10), 5.144444444444))
        #expect(UnitConversion.millimetres(fromInches: 1) == 25.4)
    }

    @Test(arguments: UnitSystem.allCases)
    func convertingBackGivesTheInternalValue(system: UnitSystem) {
        let celsius = 21.3
        let shown = system.convert(celsius, .temperature)
        let back: Double = switch system {
        case .metric: shown
        case .imperial: UnitConversion.celsius(fromFahrenheit: shown)
        case .standard: UnitConversion.celsius(fromKelvin: shown)
        }
        #expect(close(back, celsius))
    }
}
