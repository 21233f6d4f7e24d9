/// One simulated provider: how its forecasts miss the truth.
public struct SimulatedSource: Sendable {
    /// Its id (an Open-Meteo-shaped provider of that id).
    public var id: String
    /// Standard deviation of its own independent error, °C.
    public var sigma: Double
    /// Its constant bias, °C (positive: runs warm).
    public var bias: Double = 0
    /// Chance that an hour carries a wild spike.
    public var spikeChance: Double = 0
    /// The size of a spike, °C (either sign).
    public var spikeSize: Double = 0
    /// True when it carries the scenario's shared error (a copy of one upstream model).
    public var sharesError = false
    /// The endpoint it is served from: sources of one upstream share one (and so a declared family); nil for its own.
    public var upstream: String?
    /// Bias gained over the run, °C: 0 at the first hour, this much at the last, in a straight line (a drifting source).
    public var drift = 0.0
    /// Its noise is multiplied by this in the forecasts of the run's last `breakDays` days (a source that breaks).
    public var breakFactor = 1.0
    /// The number of days at the end of the run whose forecasts carry `breakFactor`.
    public var breakDays = 0

    /// Creates a source.
    public init(_ id: String, sigma: Double, bias: Double = 0, spikeChance: Double = 0, spikeSize: Double = 0, sharesError: Bool = false,
                upstream: String? = nil, drift: Double = 0, breakFactor: Double = 1, breakDays: Int = 0) {
        self.id = id
        self.sigma = sigma
        self.bias = bias
        self.spikeChance = spikeChance
        self.spikeSize = spikeSize
        self.sharesError = sharesError
        self.upstream = upstream
        self.drift = drift
        self.breakFactor = breakFactor
        self.breakDays = breakDays
    }
}

/// A set of providers with error models, run through archive → verification → weighting.
public struct SimulationScenario: Sendable {
    /// Its short name, as in the table.
    public var name: String
    /// The providers.
    public var sources: [SimulatedSource]
    /// Standard deviation of the error shared by the sources that share one, °C.
    public var sharedSigma: Double = 0

    /// Creates a scenario.
    public init(_ name: String, sources: [SimulatedSource], sharedSigma: Double = 0) {
        self.name = name
        self.sources = sources
        self.sharedSigma = sharedSigma
    }

    /// Honest providers with unequal noise: σ 0.8, 1.2 and 2.0 °C.
    public static let honest = SimulationScenario("honest σ 0.8/1.2/2.0", sources: [
        SimulatedSource("good", sigma: 0.8), SimulatedSource("fair", sigma: 1.2), SimulatedSource("poor", sigma: 2.0),
    ])
    /// Four providers, one biased +3 °C.
    public static let biased = SimulationScenario("four, one +3 °C", sources: [
        SimulatedSource("a", sigma: 1.0), SimulatedSource("b", sigma: 1.2), SimulatedSource("c", sigma: 1.4),
        SimulatedSource("warm", sigma: 1.0, bias: 3),
    ])
    /// Five providers, one with occasional wild spikes.
    public static let spiky = SimulationScenario("five, one spiky", sources: [
        SimulatedSource("a", sigma: 1.0), SimulatedSource("b", sigma: 1.1), SimulatedSource("c", sigma: 1.2),
        SimulatedSource("d", sigma: 1.3), SimulatedSource("spiky", sigma: 1.0, spikeChance: 0.08, spikeSize: 8),
    ])
    /// Two providers, one biased +3 °C.
    public static let twoSources = SimulationScenario("two, one +3 °C", sources: [
        SimulatedSource("good", sigma: 1.0), SimulatedSource("warm", sigma: 1.0, bias: 3),
    ])
    /// Two copies of one model served from one endpoint (a shared error of σ 1.5 °C, 0.4 °C each of their own) and one
    /// independent source (σ 1.5 °C).
    public static let correlated = SimulationScenario("correlated pair + one", sources: [
        SimulatedSource("copy-1", sigma: 0.4, sharesError: true, upstream: "copy"), SimulatedSource("copy-2", sigma: 0.4, sharesError: true, upstream: "copy"),
        SimulatedSource("independent", sigma: 1.5),
    ], sharedSigma: 1.5)
    /// Three providers, one drifting from no bias to +2 °C over the run.
    public static let drifting = SimulationScenario("three, one drifts to +2 °C", sources: [
        SimulatedSource("a", sigma: 1.0), SimulatedSource("b", sigma: 1.2), SimulatedSource("drifting", sigma: 1.0, drift: 2),
    ])
    /// Four providers with unequal noise whose best (σ 0.7 °C) triples its errors in the run's last 5 days.
    public static let breaking = SimulationScenario("best breaks, last 5 days", sources: [
        SimulatedSource("best", sigma: 0.7, breakFactor: 3, breakDays: 5), SimulatedSource("b", sigma: 1.0),
        SimulatedSource("c", sigma: 1.2), SimulatedSource("d", sigma: 1.4),
    ])

    /// Every scenario, in table order.
    public static let all: [SimulationScenario] = [honest, biased, spiky, twoSources, correlated, drifting, breaking]
}

/// How long and how large a simulation is.
public struct SimulationSettings: Sendable {
    /// Days of history archived before the consensus is judged.
    public var historyDays = 30
    /// Days the consensus is judged on, each after learning from everything before it.
    public var evaluationDays = 6
    /// Hours each daily forecast covers (issued at midnight UTC).
    public var forecastHours = 48
    /// The random seed.
    public var seed: UInt64 = 1
    /// True to correct learned biases.
    public var biasCorrection = true

    /// Creates settings.
    public init(historyDays: Int = 30, evaluationDays: Int = 6, forecastHours: Int = 48, seed: UInt64 = 1, biasCorrection: Bool = true) {
        self.historyDays = historyDays
        self.evaluationDays = evaluationDays
        self.forecastHours = forecastHours
        self.seed = seed
        self.biasCorrection = biasCorrection
    }
}

/// What a simulation measured over its evaluation days: each method's mean absolute error against the truth, and how
/// often the 80 % intervals held it.
public struct SimulationOutcome: Sendable {
    /// The scenario's name.
    public var scenario: String
    /// Hours judged.
    public var hours = 0
    /// Each single source's MAE, by id.
    public var singles: [String: Double] = [:]
    /// The mean of the sources.
    public var naiveMean = 0.0
    /// The plain median of the sources.
    public var plainMedian = 0.0
    /// The consensus with no history (the v1 rule).
    public var withoutHistory = 0.0
    /// The consensus with learned weights (and corrections).
    public var learned = 0.0
    /// The learned consensus's mean error (its remaining bias).
    public var learnedBias = 0.0
    /// Share of truths inside the learned consensus's 80 % interval.
    public var coverage = 0.0
    /// Share of truths inside the spread-based 80 % interval (no history).
    public var spreadCoverage = 0.0
    /// Share of judged values whose interval came from the record.
    public var recordBasedShare = 0.0
    /// Share of judged values merged with learned weights (not the v1 rule for too little history).
    public var learnedShare = 0.0
    /// True when the first judged day's consensus said it was learned (the backfill path: the day after `isobar learn`).
    public var learnedOnFirstDay = false
    /// The pairs `isobar learn` folded (the backfill path; 0 otherwise).
    public var backfillPairs = 0
    /// The learned correction of each source at the last evaluation, 0–6 h ahead.
    public var corrections: [String: Double] = [:]
    /// The learned weight of each source at the last evaluation, 0–6 h ahead.
    public var weights: [String: Double] = [:]
    /// Judged inputs at least `wildError` from the truth.
    public var wildInputs = 0
    /// Share of those left out as outliers by the merge without history (equal weights).
    public var wildLeftOutEqual = 0.0
    /// Share of those left out as outliers by the learned merge.
    public var wildLeftOutLearned = 0.0

    /// An input this far from the truth (°C) is wild: beyond what the simulated sources' own noise reaches but by chance.
    public static let wildError = 5.0

    /// The best single source's MAE.
    public var bestSingle: Double { singles.values.min() ?? .nan }
}
