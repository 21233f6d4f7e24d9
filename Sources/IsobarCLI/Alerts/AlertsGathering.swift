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
    let outcome: AlertPolling.Outcome
}

/// Asks every alert source about one place at once and merges what they send.
struct AlertsGathering: Sendable {
    /// The alert sources, bound to their transports.
    var bindings: [ProviderBinding]
    /// The clock.
    var time: any TimeSource
    /// Seconds each source has to answer.
    var timeoutSeconds: Double
    /// Where live sources keep their answers, polls and published files between runs; nil to keep nothing.
    var cache: (any ResponseCache)?
    /// False to send no validators (`--record`: every answer whole); answers still leave theirs.
    var sendsValidators = true

    /// The report for `place`: sources outside their coverage are not asked; a source that fails is named, and the others'
    /// alerts are still shown; a source whose refresh failed shows its kept answer, saying as of when.
    func report(for place: Place) async -> AlertsReport {
        let now = time.now()
        let deadline = now.addingTimeInterval(timeoutSeconds)
        let request = WeatherRequest(place: place, kinds: [.alerts])
        let covering = bindings.indices.filter { bindings[$0].provider.covers(place) }
        let answers = await withTaskGroup(of: SourceAnswer.self) { group in
            for index in covering {
                let polling = AlertPolling(binding: bindings[index], cache: cache, time: time, sendsValidators: sendsValidators)
                group.addTask { SourceAnswer(index: index, outcome: await polling.answer(request, now: now, deadline: deadline)) }
            }
            var answers: [Int: AlertPolling.Outcome] = [:]
            for await answer in group { answers[answer.index] = answer.outcome }
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
            case .answered(let report):
                var recordedAt: Date?
                if case .replay(let instant) = report.source { recordedAt = instant; recordings.append(instant) } else { anyLive = true }
                source.answer = .answered(fetchedAt: report.fetchedAt, recordedAt: recordedAt)
                source.notes = report.notices
                messages += report.alerts
            case .stale(let report, let error):
                anyLive = true
                source.answer = .stale(asOf: report.fetchedAt, error)
                source.notes = report.notices
                messages += report.alerts
            case .failed(let error) where error.reason == .notRecorded && binding.policy == nil:
                // A replayed source with no recording of the place knows nothing of it, as one whose coverage leaves it out.
                source.answer = .notRecorded
            case .failed(let error):
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

/// How one alert source is asked about a place, by its own terms: a kept answer within its lifetime (the longer of the
/// polling floor and the HTTP lifetime, else the source's freshness) is used without asking; no place is polled twice
/// within the floor, even after a failure; a failed refresh shows the kept answer as stale (never silently), unless its
/// headers said `must-revalidate`. A refresh is sent conditionally when the last answer came with a validator (`ETag`,
/// `Last-Modified`, kept in the store as the weather's are): a `304 Not Modified` confirms the kept alerts, fresh as of
/// now, without downloading them again. Replayed sources, and runs with no store, ask every time and keep nothing.
struct AlertPolling: Sendable {
    /// What came of asking.
    enum Outcome: Sendable {
        /// An answer, fresh from the source or kept within its lifetime.
        case answered(WeatherReport)
        /// The refresh failed with the error; the kept answer is shown.
        case stale(WeatherReport, ProviderError)
        /// No answer.
        case failed(ProviderError)
    }

    /// The source.
    let binding: ProviderBinding
    /// The store, when answers are kept.
    let cache: (any ResponseCache)?
    /// The clock.
    let time: any TimeSource
    /// False to send no validators (`--record`).
    var sendsValidators = true

    /// The source's answer for `request` at `now`.
    func answer(_ request: WeatherRequest, now: Date, deadline: Date) async -> Outcome {
        let provider = binding.provider
        if let unusable = provider.unusableReason(for: request) { return .failed(unusable) }
        guard let cache, binding.policy != nil else { return await fetch(request, transport: binding.transport, deadline: deadline) }
        let kept = AlertCache(cache: cache, storageKey: binding.storageKey)
        let coordinate = request.place.coordinate
        let capabilities = provider.capabilities
        let floor = capabilities.pollingFloorSeconds ?? 0
        let keptAnswer = await kept.answer(for: coordinate)
        if let keptAnswer {
            let lifetime = max(floor, keptAnswer.lifetimeSeconds ?? capabilities.freshFor.current)
            if now < keptAnswer.fetchedAt.addingTimeInterval(lifetime) { return .answered(report(keptAnswer, request)) }
        }
        if floor > 0 {
            if let last = await kept.lastPoll(for: coordinate), now < last.addingTimeInterval(floor) {
                let wait = last.addingTimeInterval(floor).timeIntervalSince(now)
                let error = ProviderError(.rateLimited(retryAfterSeconds: wait),
                                          "\(provider.displayName) was polled less than \(Self.words(floor)) ago; "
                                            + "its terms allow one poll of a place per \(Self.words(floor))")
                return stale(keptAnswer, request, error) ?? .failed(error)
            }
            await kept.notePoll(at: now, for: coordinate)
        }
        // The store that keeps the answers keeps the validators too; published files are answered above them, from the cache.
        let revalidating = RevalidatingTransport(base: binding.transport, store: cache as? any HTTPValidatorStore, conditional: sendsValidators,
                                                 storageKey: binding.storageKey, time: time, diagnostics: DiagnosticLog())
        var transport: any Transport = revalidating
        if let published = provider as? any PublishedFiles {
            transport = PublishedFileTransport(base: transport, cache: kept, isPublished: { published.isPublishedFile($0) }, time: time)
        }
        let outcome = await fetch(request, transport: transport, deadline: deadline)
        switch outcome {
        case .answered(let report):
            // Validators are kept only for an answer that was read: a body that failed is never confirmed by a later 304.
            await revalidating.commit()
            await kept.keep(report)
            return outcome
        case .failed(let error):
            return stale(keptAnswer, request, error) ?? outcome
        case .stale:
            return outcome
        }
    }

    /// `10 minutes`, `30 seconds`.
    static func words(_ seconds: Double) -> String {
        seconds >= 120 ? "\(Int((seconds / 60).rounded())) minutes" : "\(Int(seconds.rounded())) seconds"
    }

    /// Asks the source itself.
    private func fetch(_ request: WeatherRequest, transport: any Transport, deadline: Date) async -> Outcome {
        let context = FetchContext(transport: transport, time: time, deadline: deadline)
        do throws(ProviderError) {
            return .answered(try await binding.provider.fetch(request, context: context))
        } catch {
            return .failed(error)
        }
    }

    /// The kept answer shown as stale with `error`, unless there is none or it must not be served past its lifetime.
    private func stale(_ kept: AlertCache.Kept?, _ request: WeatherRequest, _ error: ProviderError) -> Outcome? {
        guard let kept, !kept.mustRevalidate else { return nil }
        return .stale(report(kept, request), error)
    }

    private func report(_ kept: AlertCache.Kept, _ request: WeatherRequest) -> WeatherReport {
        var report = WeatherReport(providerID: binding.provider.id, place: request.place, fetchedAt: kept.fetchedAt)
        report.alerts = kept.alerts
        report.notices = kept.notices
        return report
    }
}
