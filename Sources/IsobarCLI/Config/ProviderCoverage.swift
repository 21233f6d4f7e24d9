import Exec
import FixtureReplay
import IsobarCore

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
