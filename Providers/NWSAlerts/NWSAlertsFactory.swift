import IsobarCore

extension NWSAlertsProvider {
    /// The environment variable a contact is read from when the configuration entry sets none.
    public static let contactVariable = "ISOBAR_CONTACT"

    /// How Isobar builds the NWS alerts source from a configuration entry: no key, but a contact is required to go live.
    public static func factory(application: String) -> ProviderFactory {
        .contacted(
            type: "nws-alerts", summary: "US National Weather Service: active warnings (CAP), United States only; no key, a contact required",
            kinds: [.alerts], variable: contactVariable, baseURL: defaultBaseURL, application: application, make: NWSAlertsProvider.init(configuration:))
    }
}
