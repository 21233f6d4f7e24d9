import IsobarCore

extension Place {
    /// `Paris, Île-de-France, FR` style label with every part known.
    public var fullLabel: String { [name, adminArea, countryCode].compactMap { $0 }.joined(separator: ", ") }

    /// `Minsk, Minsk City, Belarus`: the label with the country's name, for sentences; the code when `country` is nil.
    public func spokenLabel(country: String?) -> String { [name, adminArea, country ?? countryCode].compactMap { $0 }.joined(separator: ", ") }
}
