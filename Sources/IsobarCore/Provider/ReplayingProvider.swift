/// A provider that answers another adapter's requests from recordings instead of asking its service: what it replays is
/// `replayed`, so that a command can reach what that adapter offers beyond `WeatherProvider` (its past forecasts) without
/// naming the replaying type.
public protocol ReplayingProvider: WeatherProvider {
    /// The adapter whose requests are answered from the recordings.
    var replayed: any WeatherProvider { get }
}
