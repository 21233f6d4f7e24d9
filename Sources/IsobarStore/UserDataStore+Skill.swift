import FoundationEssentials
import IsobarCore
import IsobarEngine

extension UserDataStore {
    /// What the consensus learns from this archive near `place` (every place when nil), as of `now`: every quantity that
    /// has both archived forecasts and observations, except directions. `families` names each source's declared upstream.
    public func skillRecord(near place: Place?, now: Date, settings: ConsensusLearning, families: [String: String] = [:])
        async throws(UserDataError) -> SkillRecord {
        let steps = try await archivedSteps(near: place)
        let observed = try await archivedObservations(near: place)
        return Self.skillRecord(steps: steps, observations: observed, now: now, settings: settings, families: families)
    }

    /// The record learned from archived steps and observations (see `skillRecord(near:now:settings:families:)`).
    public static func skillRecord(steps: [ArchivedStep], observations: [ArchivedObservation], now: Date, settings: ConsensusLearning,
                                   families: [String: String] = [:]) -> SkillRecord {
        func key(_ latitude: Double, _ longitude: Double) -> String { "\(latitude),\(longitude)" }
        var record = SkillRecord()
        for quantity in Quantity.allCases where quantity.spec.interpolation != .circular {
            let field = quantity.rawValue
            let truths = observations.compactMap { observation in
                observation.values[field].map {
                    Verification.Observation(place: key(observation.latitude, observation.longitude), time: observation.observedAt, value: $0)
                }
            }
            guard !truths.isEmpty else { continue }
            let forecasts = steps.compactMap { step in
                step.values[field].map {
                    Verification.Forecast(provider: step.provider, place: key(step.latitude, step.longitude), issuedAt: step.issuedAt,
                                          validAt: step.validAt, value: $0)
                }
            }
            record.learn(quantity, forecasts: forecasts, observations: truths, families: families, now: now, settings: settings)
        }
        return record
    }
}
