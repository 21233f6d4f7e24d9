import Exec
import FixtureReplay
import IsobarCore
import IsobarEngine

/// Where a provider has data: the box an exec program declares, or everywhere for the others.
enum ProviderCoverage {
    /// The provider under a replay wrapper, as configured.
    static func unwrapped(_ provider: any WeatherProvider) -> any WeatherProvider {
        (provider as? FixtureReplayProvider)?.base ?? provider
    }

    /// True when the provider has data for `coordinate`.
    static func covers(_ provider: any WeatherProvider, _ coordinate: Coordinate) -> Bool {
        (unwrapped(provider) as? ExecProvider)?.description.coverage.contains(coordinate) ?? true
    }

    /// `south…north °N, west…east °E` for a provider with a declared box, nil for one that covers the globe.
    static func text(_ provider: any WeatherProvider) -> String? {
        guard let exec = unwrapped(provider) as? ExecProvider, case .box(let south, let west, let north, let east) = exec.description.coverage
        else { return nil }
        return "latitudes \(JSONOutput.format(south))…\(JSONOutput.format(north)), longitudes \(JSONOutput.format(west))…\(JSONOutput.format(east))"
    }
}

extension EngineEvent {
    /// True for the failure of a provider asked about a place outside its declared coverage: it has no data there, which
    /// is no fault, so it never changes the exit code.
    var isOutsideCoverage: Bool {
        guard case .failure(_, _, let error) = self else { return false }
        return error.reason == .outsideCoverage
    }
}
