import FoundationEssentials
import IsobarCore

extension SkillFolder {
    /// An observation stands for a valid time when at most this far from it, in seconds (as `Verification.Rules`).
    public static let matchWithinSeconds = 1_800.0

    /// Folds archived steps into this folder, each against the observations of its place cell and of each basis (a
    /// source's reports, or `proxy:<provider>`) nearest its valid time; returns, per step, whether some observation
    /// stood for it. The chance of precipitation is scored by Brier against whether precipitation was observed.
    public mutating func fold(_ steps: [ArchivedStep], observations: [ArchivedObservation]) -> [Bool] {
        func place(_ latitude: Double, _ longitude: Double) -> String { "\(latitude),\(longitude)" }
        var matched = [Bool](repeating: false, count: steps.count)
        let series = Dictionary(grouping: observations) { SeriesKey(place: place($0.latitude, $0.longitude), basis: $0.basis) }
            .mapValues { $0.sorted { $0.observedAt < $1.observedAt } }
        let stepsByPlace = Dictionary(grouping: steps.indices) { place(steps[$0].latitude, steps[$0].longitude) }
        let chance = Quantity.precipitationProbability.rawValue
        for (key, list) in series.sorted(by: { ($0.key.place, $0.key.basis) < ($1.key.place, $1.key.basis) }) {
            guard let indices = stepsByPlace[key.place] else { continue }
            for quantity in Quantity.allCases where quantity.spec.interpolation != .circular {
                let field = quantity.rawValue
                let truths: [Verification.Observation] = list.compactMap { observation in
                    let value = field == chance ? observation.precipitationOccurred.map { $0 ? 1.0 : 0.0 } : observation.values[field]
                    return value.map { Verification.Observation(place: key.place, time: observation.observedAt, value: $0) }
                }
                guard !truths.isEmpty else { continue }
                var cases: [CaseKey: (SkillGroupKey, SkillCase)] = [:]
                for index in indices {
                    guard let value = steps[index].values[field], let bucket = LeadBucket(leadHours: steps[index].leadHours),
                          let truth = Verification.nearest(steps[index].validAt, in: truths, within: Self.matchWithinSeconds) else { continue }
                    matched[index] = true
                    let caseKey = CaseKey(issuedAt: steps[index].issuedAt, validAt: steps[index].validAt)
                    if cases[caseKey] == nil {
                        let atIssue = Verification.nearest(steps[index].issuedAt, in: truths, within: 5_400)?.value
                        cases[caseKey] = (SkillGroupKey(basis: key.basis, place: key.place, field: field, bucket: bucket),
                                          SkillCase(validAt: steps[index].validAt.timeIntervalSince1970, truth: truth.value, atIssue: atIssue, values: []))
                    }
                    cases[caseKey]!.1.values.append((steps[index].provider, value))
                }
                for (_, entry) in cases.sorted(by: { ($0.key.validAt, $0.key.issuedAt) < ($1.key.validAt, $1.key.issuedAt) }) {
                    let values = entry.1.values.sorted { $0.provider < $1.provider }
                    if field == chance {
                        foldChance(validAt: entry.1.validAt, occurred: entry.1.truth >= 0.5, values: values, into: entry.0)
                    } else {
                        var item = entry.1
                        item.values = values
                        fold(item, into: entry.0)
                    }
                }
            }
        }
        return matched
    }

    private struct SeriesKey: Hashable { let place: String; let basis: String }
    private struct CaseKey: Hashable { let issuedAt: Date; let validAt: Date }
}

extension SkillLedger {
    /// The ledger of archived steps and observations held in memory (the demo's recorded history), as the store would fold them.
    public static func folding(steps: [ArchivedStep], observations: [ArchivedObservation], families: [String: String] = [:],
                               configuration: ConsensusConfiguration = ConsensusConfiguration()) -> SkillLedger {
        var folder = SkillFolder(declared: families, configuration: configuration)
        _ = folder.fold(steps, observations: observations)
        return folder.ledger
    }
}

extension ArchivedObservation {
    /// The basis of the observation, as written out: `proxy:<provider>` for a provider's current values, else its source.
    public var basis: String {
        source == ArchivedObservation.proxySource ? "proxy:" + station : source
    }

    /// Whether precipitation was observed: any precipitation rate above zero or a condition of precipitation (METAR
    /// present weather); nil when the observation says neither.
    public var precipitationOccurred: Bool? {
        let rate = values[Quantity.precipitationRate.rawValue]
        if let rate, rate > 0 { return true }
        if let id = condition, let condition = Condition.allCases.first(where: { $0.id == id }) { return condition.isPrecipitation }
        return rate.map { _ in false }
    }
}
