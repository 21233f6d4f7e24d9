import FoundationEssentials
import IsobarCore

extension Engine {
    /// Every provider's result events for `request` when each has its answer at once (see `PipelineStep.answerAtOnce`: a
    /// fresh answer the cache reads on the caller's thread), in display order; nil as soon as one has not, and then every
    /// provider is asked as usual, each in a task of its own raced against the deadline.
    func answeredAtOnce(_ request: EngineRequest, pipelines: [(step: any PipelineStep, stale: StaleIfErrorStep?)], deadline: Date,
                        calendar: Strategy.Calendar?) -> [[Event]]? {
        guard !Task.isCancelled else { return nil }
        var answered: [[Event]] = []
        answered.reserveCapacity(bindings.count)
        for (binding, pipeline) in zip(bindings, pipelines) {
            let provider = binding.provider
            let narrowed = narrowed(request.weather, for: provider)
            let call = ProviderCall(request: narrowed, deadline: deadline, requestID: request.id)
            guard !narrowed.kinds.isEmpty, provider.unusableReason(for: narrowed) == nil, let answer = pipeline.step.answerAtOnce(call)
            else { return nil }
            answered.append(results(of: answer, asked: narrowed, for: request, calendar: calendar))
        }
        return answered
    }
}
