import IsobarCLI
import Testing

/// Parses configuration text.
private func parse(_ text: String) throws(ConfigurationError) -> Configuration {
    try Configuration.parse(Array(text.utf8), file: "config.json", directory: "/tmp")
}

@Suite("Configuration: learned weights")
struct LearnedWeightsConfigurationTests {
    @Test("weights default to equal, without bias correction")
    func defaults() throws {
        let configuration = try parse(#"{"providers":[]}"#)
        #expect(configuration.weighting == .equal)
        #expect(!configuration.biasCorrection)
    }

    @Test("weights auto with bias correction")
    func auto() throws {
        let configuration = try parse(#"{"weights":"auto","bias_correction":true,"providers":[]}"#)
        #expect(configuration.weighting == .auto)
        #expect(configuration.biasCorrection)
    }

    @Test("bad weights and bias corrections are one-line errors", arguments: [
        (#"{"weights":"learned","providers":[]}"#, "weights must be \"auto\" or \"equal\""),
        (#"{"weights":2,"providers":[]}"#, "weights"),
        (#"{"bias_correction":"yes","providers":[]}"#, "bias_correction"),
    ])
    func errors(text: String, fragment: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message.contains(fragment), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }
}

@Suite("Learned weights in the output")
struct LearnedWeightsOutputTests {
    @Test func withTooLittleHistoryTheConsensusSaysSoAndGivesSpreadIntervals() async throws {
        let run = await runCLI(["compare", "Minsk", "--demo", "--format", "jsonl", "--weights", "auto"])
        #expect(run.code == 0, "\(run.stderr)")
        let consensus = try #require(try parseLines(run).last)
        #expect(try consensus.string("weighting") == "equal (too little history)")
        let temperature = try consensus.member("current").member("merged").member("temperature")
        #expect(try temperature.string("interval_basis") == "spread")
        let interval = try temperature.member("interval_80").elements().map { try $0.double() }
        let value = try consensus.member("current").double("temperature")
        #expect(interval.count == 2 && interval[0] < value && value < interval[1])
        #expect(try temperature.member("inputs").elements().allSatisfy { try $0.double("correction") == 0 })
        // The same values as the configured weights give.
        let plain = await runCLI(["compare", "Minsk", "--demo", "--format", "jsonl"])
        #expect(try #require(try parseLines(plain).last).member("current").double("temperature") == value)
        let table = await runCLI(["compare", "Minsk", "--demo", "--weights", "auto"])
        #expect(table.stdout.contains("Weights: equal (too little history"))
        #expect(table.stdout.contains("80 % interval"))
    }

    @Test func biasCorrectionNeedsLearnedWeights() async {
        let run = await runCLI(["compare", "Minsk", "--demo", "--bias-correction"])
        #expect(run.code == 64)
        #expect(run.stderr.contains("--bias-correction needs learned weights"))
    }
}
