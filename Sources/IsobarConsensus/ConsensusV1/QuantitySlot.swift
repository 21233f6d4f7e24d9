import IsobarCore

/// Dense indexes for `Quantity`, so aligned series and merged hours can use arrays rather than dictionaries.
enum QuantitySlot {
    static let count = Quantity.allCases.count
    /// Every quantity, in slot order (kept, as `allCases` builds a new array each time it is read).
    static let all: [Quantity] = Quantity.allCases
    /// Every daily quantity, in declaration order.
    static let allDaily: [DailyQuantity] = DailyQuantity.allCases
    /// Quantities interpolated linearly, as declared.
    static let continuous: [Quantity] = Quantity.allCases.filter { $0.spec.interpolation == .linear }
}

extension Quantity {
    /// The quantity's index in `Quantity.allCases`: a switch, as it is read in the merge's inner loops (tested against
    /// `allCases`, so that a quantity added to the table cannot take another's slot).
    var consensusSlot: Int {
        switch self {
        case .temperature: 0
        case .apparentTemperature: 1
        case .humidity: 2
        case .pressure: 3
        case .windSpeed: 4
        case .windGust: 5
        case .windDirection: 6
        case .cloudCover: 7
        case .visibility: 8
        case .precipitationRate: 9
        case .precipitationProbability: 10
        case .dewPoint: 11
        case .uvIndex: 12
        case .pm25: 13
        case .pm10: 14
        case .ozone: 15
        case .nitrogenDioxide: 16
        case .sulphurDioxide: 17
        case .carbonMonoxide: 18
        case .dust: 19
        case .alderPollen: 20
        case .birchPollen: 21
        case .grassPollen: 22
        case .mugwortPollen: 23
        case .olivePollen: 24
        case .ragweedPollen: 25
        }
    }
}

