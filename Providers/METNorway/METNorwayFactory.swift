import IsobarCore

extension METNorwayProvider {
    /// The environment variable a contact is read from when the configuration entry sets none.
    public static let contactVariable = "ISOBAR_CONTACT"

    /// How Isobar builds MET Norway from a configuration entry: no key, but a contact is required to go live.
    public static func factory(application: String) -> ProviderFactory {
        .contacted(
            type: "met-norway", summary: "MET Norway: current, hourly, 9 days; no key, a contact required (CC BY 4.0)",
            variable: contactVariable, baseURL: defaultBaseURL, application: application, make: METNorwayProvider.init(configuration:))
    }
}
