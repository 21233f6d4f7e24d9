/// One source of values in the consensus: a provider, or one of the several models a provider answers for in one request.
public struct SourceIdentity: Sendable, Equatable, Hashable {
    /// Stable id shown in output, e.g. `met-norway` or `open-meteo/ecmwf_ifs025`.
    public var id: String
    /// Name for people, e.g. `Open-Meteo ECMWF IFS`.
    public var name: String
    /// The upstream it shares with other sources (`open-meteo` for every Open-Meteo model); sources of one family are not
    /// independent, and the consensus may weigh a family as one source.
    public var family: String
    /// The configured provider whose request carries it (its weight applies when the source has none of its own).
    public var providerID: String

    /// Creates a source identity; by default its own family and provider.
    public init(id: String, name: String, family: String? = nil, providerID: String? = nil) {
        self.id = id
        self.name = name
        self.family = family ?? id
        self.providerID = providerID ?? id
    }
}
