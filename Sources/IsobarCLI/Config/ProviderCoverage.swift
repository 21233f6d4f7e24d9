import IsobarCore
import IsobarEngine

extension EngineEvent {
    /// True for the failure of a provider asked about a place outside its declared coverage: it has no data there, which
    /// is no fault, so it never changes the exit code.
    var isOutsideCoverage: Bool {
        guard case .failure(_, _, let error) = self else { return false }
        return error.reason == .outsideCoverage
    }
}
