import IsobarCore

/// Footnotes under the cities table: one per distinct failure (provider, code and cause), marked in each city's row.
public struct CityFailureNotes: Sendable {
    private var notes: [(key: String, text: String, cities: [Int])] = []

    /// Notes for each city's failures; `name` gives a provider's display name. `demoPlaces`, in the demo, are the places
    /// recorded: a city with no recording is then one short note naming them, not the request that found none.
    public init(_ failures: [[(provider: String, error: ProviderError)]], name: (String) -> String, demoPlaces: [String]? = nil) {
        for (city, list) in failures.enumerated() {
            for failure in list {
                let key = "\(failure.provider)|\(failure.error.codeName)|\(failure.error.reason?.rawValue ?? "")"
                if let index = notes.firstIndex(where: { $0.key == key }) {
                    notes[index].cities.append(city)
                } else {
                    let provider = name(failure.provider)
                    if let demoPlaces, failure.error.reason == .notRecorded {
                        let recorded = demoPlaces.isEmpty ? "" : ": it has recordings of \(PlainWords.list(demoPlaces)) only"
                        notes.append((key, "\(provider): not recorded — the demo has no recording of this city\(recorded)", [city]))
                        continue
                    }
                    let message = failure.error.message.hasPrefix(provider + ": ")
                        ? String(failure.error.message.dropFirst(provider.count + 2)) : failure.error.message
                    notes.append((key, "\(provider): \(failure.error.codeName.replacingUnderscores) — \(message)", [city]))
                }
            }
        }
    }

    /// The markers of the notes that concern `city`, e.g. ` [1][2]`.
    public func markers(city: Int) -> String {
        let marks = notes.indices.filter { notes[$0].cities.contains(city) }.map { "[\($0 + 1)]" }
        return marks.isEmpty ? "" : " " + marks.joined()
    }

    /// One line per note, with how many cities it concerns.
    public var footnotes: String {
        notes.enumerated().map { index, note in
            let count = note.cities.count
            return "[\(index + 1)] \(note.text) (\(count) cit\(count == 1 ? "y" : "ies"))\n"
        }.joined()
    }
}
