import FoundationEssentials
import IsobarCore

extension Engine {
    /// `provider`'s result events for `request` when its pipeline has the answer at once (see `PipelineStep.answerAtOnce`:
    /// a fresh answer the cache reads on the caller's thread); nil otherwise, and the provider is asked as usual, in a task
    /// of its own raced against the deadline (which also reports a provider that cannot answer, or a cancelled run).
    func answeredAtOnce(_ request: EngineRequest, by provider: any WeatherProvider, _ step: any PipelineStep, deadline: Date,
                        calendar: Strategy.Calendar?) -> [Event]? {
        guard !Task.isCancelled else { return nil }
        let narrowed = narrowed(request.weather, for: provider)
        guard !narrowed.kinds.isEmpty, provider.unusableReason(for: narrowed) == nil,
              let answer = step.answerAtOnce(ProviderCall(request: narrowed, deadline: deadline, requestID: request.id))
        else { return nil }
        return results(of: answer, asked: narrowed, for: request, calendar: calendar)
    }
}
