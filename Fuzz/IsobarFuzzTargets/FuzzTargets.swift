/// Every fuzz target, in the order `scripts/fuzz.sh` lists them; the one list the script, the replayer and the tests use.
public enum FuzzTargets {
    /// All targets.
    public static let all: [FuzzTarget] = [
        DecoderTargets.openWeatherMap,
        DecoderTargets.openMeteo,
        DecoderTargets.metNorway,
        DecoderTargets.execReport,
        CassetteTarget.target,
        ConfigurationTarget.target,
        GazetteerTarget.target,
        JSONTarget.target,
        CAPTarget.target,
    ]

    /// The target called `name`, if there is one.
    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}
