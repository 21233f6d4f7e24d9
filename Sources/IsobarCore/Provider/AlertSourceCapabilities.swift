extension ProviderCapabilities {
    /// An alert source polled at most once per `pollingFloorSeconds` a place (longer when an answer's own lifetime says so):
    /// alerts only, no key, one call per floor, answers fresh for the floor, HTTP expiry honoured.
    public static func alertsPolled(atMostEvery pollingFloorSeconds: Double, attribution: String) -> ProviderCapabilities {
        var capabilities = ProviderCapabilities(
            kinds: [.alerts], horizonDays: 0, stepHours: 1, quantities: [], requiresAPIKey: false, geocoding: false,
            rateLimits: [RateLimit(limit: 1, perSeconds: pollingFloorSeconds)],
            freshFor: (current: pollingFloorSeconds, forecast: pollingFloorSeconds), attribution: attribution)
        capabilities.honoursHTTPExpiry = true
        capabilities.pollingFloorSeconds = pollingFloorSeconds
        return capabilities
    }
}
