import IsobarConsensus
import IsobarCore

/// `isobar cities --plain`: one sentence a city.
public enum PlainCities: Sendable {
    /// `1. Minsk, Minsk City, Belarus: minus 0.4 degrees Celsius, snow, from 2 of 2 providers.`, then who failed for it;
    /// `place` is the place as sentences name it (`Place.spokenLabel(country:)`).
    public static func sentence(number: Int, place: String, consensus: ConsensusResult?, asked: Int, units: UnitSystem,
                         failures: [(provider: String, error: ProviderError)], name: (String) -> String) -> String {
        let current = consensus?.current
        var parts = [current?.values[.temperature].map { PlainWords.measure($0.value, .temperature, units) }, current?.condition?.value.label]
            .compactMap { $0 }
        let answered = consensus?.providers.count ?? 0
        parts.append(answered == 0 ? "no provider answered" : "from \(answered) of \(asked) provider\(asked == 1 ? "" : "s")")
        var text = "\(number). \(place): \(parts.joined(separator: ", "))."
        if !failures.isEmpty {
            let said = failures.map { "\(name($0.provider)) (\($0.error.codeName.replacingUnderscores))" }
            text += " Did not answer: \(PlainWords.list(said))."
        }
        return text + "\n"
    }
}
