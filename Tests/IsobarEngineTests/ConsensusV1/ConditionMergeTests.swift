import IsobarConsensus
import IsobarCore
import IsobarEngine
import Testing

@Suite("ConsensusV1 condition vote")
struct ConsensusV1ConditionMergeTests {
    static func votes(_ conditions: [Condition], weights: [Double]? = nil) -> [ConditionVote] {
        conditions.enumerated().map { index, condition in
            ConditionVote(provider: "p\(index)", condition: condition, weight: weights?[index] ?? 1)
        }
    }

    static func wet(_ count: Int) -> [PrecipitationEvidence] {
        Array(repeating: PrecipitationEvidence(amountMM: 1.2, probabilityPercent: 80), count: count)
    }

    static func merge(_ conditions: [Condition], weights: [Double]? = nil, evidence: [PrecipitationEvidence]? = nil) throws -> MergedConditionV1 {
        try #require(ConditionMerge.merge(votes(conditions, weights: weights), evidence: evidence ?? wet(conditions.count)))
    }

    @Test func theMajorityWins() throws {
        let merged = try Self.merge([.rain, .rain, .cloudy])
        #expect(merged.value == .rain)
        #expect(!merged.isImplausible)
        #expect(merged.votes.map(\.provider) == ["p0", "p1", "p2"])
        // Share 2/3, sources 1 − 2⁻³.
        #expect(abs(merged.confidence - 2.0 / 3 * 0.875) < 1e-12)
    }

    @Test func weightsDecideTheVote() throws {
        #expect(try Self.merge([.rain, .rain, .cloudy], weights: [1, 1, 3]).value == .cloudy)
        #expect(try Self.merge([.rain, .cloudy, .fog], weights: [2, 1, 1]).value == .rain)
    }

    @Test func tiesGoToTheMoreSevere() throws {
        #expect(try Self.merge([.rain, .snow]).value == .snow)
        #expect(try Self.merge([.fog, .clear]).value == .fog)
        #expect(try Self.merge([.thunderstorm, .clear, .clear, .thunderstorm]).value == .thunderstorm)
        // 1 + 1 against 2: a tie by weight.
        #expect(try Self.merge([.drizzle, .drizzle, .haze], weights: [1, 1, 2]).value == .drizzle)
        #expect(try Self.merge([.partlyCloudy, .cloudy], weights: [1.5, 1.5]).value == .cloudy)
    }

    @Test func noVotesGiveNothing() {
        #expect(ConditionMerge.merge([], evidence: []) == nil)
        #expect(ConditionMerge.merge(Self.votes([.rain], weights: [0]), evidence: []) == nil)
    }

    // MARK: Precipitation cross-check

    static let dry = [
        PrecipitationEvidence(amountMM: 0, probabilityPercent: 10), PrecipitationEvidence(amountMM: 0, probabilityPercent: 20),
        PrecipitationEvidence(amountMM: 0, probabilityPercent: 5),
    ]

    @Test func rainWithEverySourceDryIsDemoted() throws {
        let merged = try Self.merge([.rain, .rain, .cloudy], evidence: Self.dry)
        #expect(merged.value == .cloudy)
        #expect(merged.demotedFrom == .rain)
        #expect(merged.isImplausible)
        // One vote of three behind the final condition.
        #expect(abs(merged.confidence - 1.0 / 3 * 0.875) < 1e-12)
    }

    @Test func demotionPicksTheHeaviestDryCondition() throws {
        #expect(try Self.merge([.snow, .snow, .snow, .fog, .clear, .clear], evidence: Self.dry).value == .clear)
        #expect(try Self.merge([.snow, .snow, .fog, .clear], evidence: Self.dry).value == .fog)
        // Only precipitation votes: cloudy.
        let onlyWet = try Self.merge([.rain, .drizzle], evidence: Self.dry)
        #expect(onlyWet.value == .cloudy)
        #expect(onlyWet.demotedFrom == .rain)
        #expect(onlyWet.confidence == 0)
    }

    @Test func rainIsKeptWhenAnySourceIsWet() throws {
        var someRain = Self.dry
        someRain[1].amountMM = 0.1
        #expect(try Self.merge([.rain, .rain, .cloudy], evidence: someRain).value == .rain)
        var likely = Self.dry
        likely[2].probabilityPercent = 30
        #expect(try Self.merge([.rain, .rain, .cloudy], evidence: likely).value == .rain)
        // Without any amount there is nothing to check against.
        let chancesOnly = [PrecipitationEvidence(amountMM: nil, probabilityPercent: 0)]
        #expect(try Self.merge([.rain], evidence: chancesOnly).value == .rain)
        // Missing chances do not stop the check when every amount is 0.
        let amountsOnly = [PrecipitationEvidence(amountMM: 0, probabilityPercent: nil)]
        #expect(try Self.merge([.snow, .cloudy, .snow], evidence: amountsOnly).value == .cloudy)
    }

    @Test func squallsAndDryWinnersAreNeverDemoted() throws {
        #expect(try Self.merge([.squall], evidence: Self.dry).value == .squall)
        #expect(try Self.merge([.fog, .fog, .rain], evidence: Self.dry).demotedFrom == nil)
    }
}
