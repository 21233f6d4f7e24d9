import FoundationEssentials
import IsobarCore

/// Gives a provider at most its own budget (`timeout_s`) within a command, every attempt and pause included.
public struct BudgetStep: PipelineStep {
    /// The step limited.
    public let next: any PipelineStep
    /// Seconds the provider may take from the start of its call.
    public let budgetSeconds: Double
    /// The clock.
    public let time: any TimeSource

    /// Wraps `next`.
    public init(next: any PipelineStep, budgetSeconds: Double, time: any TimeSource) {
        self.next = next
        self.budgetSeconds = budgetSeconds
        self.time = time
    }

    /// Calls `next` with the deadline narrowed to the earlier of the command's and the provider's budget.
    public func answer(_ call: ProviderCall) async throws(ProviderError) -> WeatherReport {
        var narrowed = call
        narrowed.deadline = min(call.deadline, time.now().addingTimeInterval(budgetSeconds))
        return try await next.answer(narrowed)
    }

    /// The next step's answer at once: taking no time, it is within any budget.
    public func answerAtOnce(_ call: ProviderCall) -> WeatherReport? { next.answerAtOnce(call) }
}
