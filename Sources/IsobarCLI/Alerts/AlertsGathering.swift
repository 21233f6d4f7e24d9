import FoundationEssentials
import IsobarCore
import IsobarRender
import IsobarEngine

/// One alert source's answer, by its place among the sources. A struct, not a tuple: a release build read the index of an
/// `(Int, Result<WeatherReport, ProviderError>?)` child result wrongly (the answer of source 0 arrived as source 3).
private struct SourceAnswer: Sendable {
    /// The source's place in `AlertsGathering.bindings`.
    let index: Int
    /// What it answered.
    let result: Result<WeatherReport, ProviderError>
}

/// Asks every alert source about one place at once and merges what they send.
struct AlertsGathering: Sendable {
    /// The alert sources, bound to their transports.
    var bindings: [ProviderBinding]
    /// The clock.
    var time: any TimeSource
    /// Seconds each source has to answer.
    var timeoutSeconds: Double

    /// The report for `place`: sources outside their coverage are not asked; a source that fails is named, and the others'
    /// alerts are still shown.
    func report(for place: Place) async -> AlertsReport {
        let now = time.now()
        let deadline = now.addingTimeInterval(timeoutSeconds)
        let request = WeatherRequest(place: place, kinds: [.alerts])
        let coordinate = place.coordinate
        let covering = bindings.indices.filter { bindings[$0].provider.coverage.contains(coordinate) }
        let answers = await withTaskGroup(of: SourceAnswer.self) { group in
            for index in covering {
                let binding = bindings[index]
                let context = FetchContext(transport: binding.transport, time: time, deadline: deadline)
                group.addTask {
                    let provider = binding.provider
                    if let unusable = provider.unusableReason(for: request) { return SourceAnswer(index: index, result: .failure(unusable)) }
                    do throws(ProviderError) {
                        return SourceAnswer(index: index, result: .success(try await provider.fetch(request, context: context)))
                    } catch {
                        return SourceAnswer(index: index, result: .failure(error))
                    }
                }
            }
            var answers: [Int: Result<WeatherReport, ProviderError>] = [:]
            for await answer in group { answers[answer.index] = answer.result }
            return answers
        }
        var sources: [AlertsReport.Source] = []
        var messages: [Alert] = []
        var recordings: [Date] = []
        var anyLive = false
        for (index, binding) in bindings.enumerated() {
            let provider = binding.provider
            var source = AlertsReport.Source(id: provider.id, name: provider.displayName, attribution: provider.capabilities.attribution,
                                             answer: .notAsked)
            switch answers[index] {
            case .success(let report):
                var recordedAt: Date?
                if case .replay(let instant) = report.source { recordedAt = instant; recordings.append(instant) } else { anyLive = true }
                source.answer = .answered(fetchedAt: report.fetchedAt, recordedAt: recordedAt)
                messages += report.alerts
            case .failure(let error):
                source.answer = .failed(error)
            case nil:
                break
            }
            sources.append(source)
        }
        // Replayed answers are judged at the time they were recorded, as the weather views read them, so that a recording
        // shows what was in force then.
        let judgedAt = !anyLive ? recordings.max() ?? now : now
        return AlertsReport(place: place.withZoneOffset(at: judgedAt), judgedAt: judgedAt,
                            active: AlertMerge.active(messages, at: judgedAt, for: place.coordinate), sources: sources)
    }
}
