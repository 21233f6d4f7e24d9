import FoundationEssentials
import IsobarCore
import IsobarEngine

/// Writes one complete JSON object per line, flushed as each event happens (schema version 1, see the README).
///
/// Each line describes the place of its event's request, so one renderer serves a run over many places.
public struct JSONLinesRenderer: Renderer {
    /// The schema version every line carries.
    public static let schemaVersion = 1

    /// What one request's providers have said so far; its consensus line lists them.
    private struct Answers {
        var reports: [WeatherReport] = []
        var failed: [String] = []
        /// Providers not asked because the place lies outside their coverage.
        var skipped: [String] = []
        var outcomes: [(String, ProviderOutcome)] = []
    }

    private let context: RenderContext
    private let output: any OutputSink
    private var answers: [RequestID: Answers] = [:]

    /// A renderer writing to `output`.
    public init(context: RenderContext, output: any OutputSink) {
        self.context = context
        self.output = output
    }

    /// Writes the event's line and flushes.
    public mutating func handle(_ event: EngineEvent) {
        handle(event, label: nil)
    }

    /// Writes the event's line, with the batch's `input_line` and `id` when labelled, and flushes.
    public mutating func handle(_ event: EngineEvent, label: LineLabel?) {
        let request = event.request
        switch event {
        case .result(_, let result):
            let report = result.report
            answers[request.id, default: Answers()].reports.append(report)
            answers[request.id, default: Answers()].outcomes.append((report.providerID, ProviderOutcome(report.freshness)))
            emit("provider_result", request, label, provider: report.providerID, resultMembers(result, place: request.place))
        case .failure(_, let providerID, let error):
            // A provider whose coverage leaves the place out was not asked: skipped, not a failure.
            if error.reason == .outsideCoverage {
                answers[request.id, default: Answers()].skipped.append(providerID)
            } else {
                answers[request.id, default: Answers()].failed.append(providerID)
            }
            answers[request.id, default: Answers()].outcomes.append((providerID, ProviderOutcome(error)))
            emit("provider_error", request, label, provider: providerID,
                 [("status", .string(ProviderOutcome(error).rawValue)), ("error", errorJSON(error))])
        case .consensus(_, let consensus):
            let answered = answers.removeValue(forKey: request.id) ?? Answers()
            emit("consensus", request, label, provider: nil, consensusMembers(consensus, answered, place: request.place))
        }
    }

    /// Nothing is buffered.
    public mutating func finish() { output.flush() }

    private func emit(_ type: String, _ request: EngineRequest, _ label: LineLabel?, provider: String?, _ members: [(String, JSONOutput)]) {
        var line: [(String, JSONOutput)] = [("schema", .integer(Self.schemaVersion)), ("type", .string(type))]
        if let label {
            line.append(("input_line", .integer(label.inputLine)))
            if let id = label.id { line.append(("id", .string(id))) }
        }
        line.append(("place", placeJSON(request.place, label)))
        if let provider {
            line.append(("provider", .string(provider)))
            line.append(("provider_name", .string(context.name(of: provider))))
        }
        output.write(JSONOutput.object(line + members).serialized() + "\n")
        output.flush()
    }

    private func placeJSON(_ place: Place, _ label: LineLabel?) -> JSONOutput {
        .object([
            ("name", .string(place.name)), ("admin_area", .string(place.adminArea)), ("country_code", .string(place.countryCode)),
            ("latitude", .number(place.coordinate.latitude)), ("longitude", .number(place.coordinate.longitude)),
            ("timezone", .string(place.timeZoneIdentifier)),
            ("utc_offset_seconds", place.utcOffsetSeconds.map(JSONOutput.integer) ?? .null),
            ("query", .string(label?.query ?? context.query)),
            ("runners_up", .array((label?.runnersUp ?? context.runnersUp).map { other in
                .object([("name", .string(other.name)), ("admin_area", .string(other.adminArea)), ("country_code", .string(other.countryCode)),
                         ("latitude", .number(other.coordinate.latitude)), ("longitude", .number(other.coordinate.longitude))])
            })),
        ])
    }

    private func sourceJSON(_ source: DataSource) -> JSONOutput {
        switch source {
        case .live: .object([("kind", .string("live"))])
        case .replay(let recordedAt): .object([("kind", .string("replay")), ("recorded_at", .string(CivilTime.iso(recordedAt, utcOffsetSeconds: 0)))])
        }
    }

    private var unitsJSON: JSONOutput { Self.units(context.units) }

    /// The `units` object of a line: each quantity's symbol in `system`.
    static func units(_ system: UnitSystem) -> JSONOutput {
        var members = Quantity.allCases.map { ($0.rawValue, JSONOutput.string(system.symbol($0.dimension))) }
        members += DailyQuantity.allCases.map { ($0.rawValue, JSONOutput.string(system.symbol($0.dimension))) }
        members.append(("precipitation", .string(system.symbol(.precipitationAmount))))
        return .object(members)
    }

    private func number(_ value: Double?, _ dimension: Dimension) -> JSONOutput {
        .number(value.map { OutputNumber.converted($0, dimension, context.units) })
    }

    /// A value of a quantity: a number in the chosen units, or for instants a local ISO-8601 time at `offset`.
    private func value(_ value: Double?, _ dimension: Dimension, offset: Int) -> JSONOutput {
        guard dimension == .instant else { return number(value, dimension) }
        return .string(value.map { CivilTime.iso(Date(timeIntervalSince1970: $0.rounded()), utcOffsetSeconds: offset) })
    }

    /// The quantities a provider computed rather than gave, by name (`dew_point` from temperature and humidity).
    private func derivedJSON(_ names: [String]) -> JSONOutput { .array(names.sorted().map(JSONOutput.string)) }

    private func resultMembers(_ result: ProviderResult, place: Place) -> [(String, JSONOutput)] {
        let report = result.report
        let offset = report.utcOffsetSeconds ?? place.utcOffsetSeconds ?? 0
        var members: [(String, JSONOutput)] = [
            ("status", .string(ProviderOutcome(report.freshness).rawValue)),
            ("source", sourceJSON(report.source)),
            ("fetched_at", .string(CivilTime.iso(report.fetchedAt, utcOffsetSeconds: 0))),
            ("utc_offset_seconds", report.utcOffsetSeconds.map(JSONOutput.integer) ?? .null),
            ("timezone", .string(report.timeZoneIdentifier)),
            ("units", unitsJSON),
            ("attribution", context.attributions[report.providerID].map(JSONOutput.string) ?? .null),
        ]
        // Asked again and confirmed unchanged by a 304: the kept body was used, no new one was sent.
        if report.freshness == .fresh, report.caching?.revalidated == true { members.insert(("revalidated", .bool(true)), at: 1) }
        switch report.freshness {
        case .fresh: break
        case .cached(let age): members.insert(("age_s", .number(age.rounded())), at: 1)
        case .stale(let age, let because):
            members.insert(("age_s", .number(age.rounded())), at: 1)
            members.insert(("stale_because", .string(because)), at: 2)
        }
        if !result.notes.isEmpty {
            members.append(("notes", .array(result.notes.map { note in
                .object([("code", .string(note.code)), ("message", .string(ResultNoteText.sentence(note, place: place)))])
            })))
        }
        let warnings = result.notes.compactMap { note -> ValueWarning? in
            if case .droppedValue(let warning) = note { warning } else { nil }
        }
        if !warnings.isEmpty {
            members.append(("warnings", .array(warnings.map { warning in
                .object([("field", .string(warning.field)), ("path", .string(warning.path)),
                         ("value", .string(warning.value)), ("reason", .string(warning.reason))])
            })))
        }
        let (wantsCurrent, days, hours) = context.view.sections
        if wantsCurrent { members.append(("current", report.current.map { sampleJSON($0, offset: offset) } ?? .null)) }
        if days > 0 {
            let window = ForecastWindow(source: report.source, now: context.now, days: days)
            members.append(("daily", .array(window.dates(result.days, utcOffsetSeconds: offset, date: \.date).map { dayJSON($0, offset: offset) })))
            if let hours {
                members.append(("hourly", .array(window.hours(report.hourly, time: \.time).prefix(hours).map { sampleJSON($0, offset: offset) })))
            }
        }
        return members
    }

    private func sampleJSON(_ sample: WeatherSample, offset: Int) -> JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("time", .string(CivilTime.iso(sample.time, utcOffsetSeconds: offset))),
            ("period_hours", .number(sample.periodHours)),
            ("condition", .string(sample.condition?.id)),
        ]
        members += Quantity.allCases.map { ($0.rawValue, number(sample[$0], $0.dimension)) }
        members.append(("precipitation", number(sample.precipitationMM, .precipitationAmount)))
        members.append(("is_day", sample.isDay.map(JSONOutput.bool) ?? .null))
        members.append(("derived_fields", derivedJSON(sample.derivedQuantities.map(\.rawValue))))
        return .object(members)
    }

    private func dayJSON(_ day: DailyPoint, offset: Int) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("date", .string(day.date.description)), ("condition", .string(day.condition?.id))]
        members += DailyQuantity.allCases.map { ($0.rawValue, value(day[$0], $0.dimension, offset: offset)) }
        members.append(("derived", .bool(day.isDerived)))
        members.append(("derived_fields", derivedJSON(day.derivedQuantities.map(\.rawValue))))
        return .object(members)
    }

    private func errorJSON(_ error: ProviderError) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("code", .string(error.codeName)), ("message", .string(error.message))]
        if let reason = error.reason { members.append(("reason", .string(reason.rawValue))) }
        switch error.code {
        case .rateLimited(let retryAfter): members.append(("retry_after_s", .number(retryAfter.map(OutputNumber.round3))))
        case .badResponse(let path): members.append(("path", .string(path)))
        default: break
        }
        return .object(members)
    }

    /// Items sorted as the providers are listed, whatever order they finished in.
    private func inDisplayOrder<T>(_ items: [T], id: (T) -> String) -> [T] {
        let order = context.providers.map(\.id)
        return items.sorted { (order.firstIndex(of: id($0)) ?? .max) < (order.firstIndex(of: id($1)) ?? .max) }
    }

    /// How a quantity was merged; its value is the plain number beside it, under the quantity's own key.
    private func mergedJSON(_ merged: MergedField?, _ dimension: Dimension, offset: Int = 0) -> JSONOutput {
        guard let merged else { return .null }
        let number = { (value: Double?, dimension: Dimension) in self.value(value, dimension, offset: offset) }
        let difference = { (value: Double) in JSONOutput.number(OutputNumber.round3(context.units.convertDifference(value, dimension))) }
        var members: [(String, JSONOutput)] = [
            ("min", number(merged.min, dimension)), ("max", number(merged.max, dimension)),
            ("spread", difference(merged.spread)), ("mad", difference(merged.medianAbsoluteDeviation)),
            ("confidence", .number(OutputNumber.round3(merged.confidence))),
            ("providers", .array(merged.contributors.map(JSONOutput.string))),
            ("outliers", .array(merged.outliers.map(JSONOutput.string))),
            ("missing", .array(merged.missing.map(JSONOutput.string))),
            ("inputs", .array(merged.inputs.map { input in
                var members: [(String, JSONOutput)] = [
                    ("provider", .string(input.provider)), ("value", number(input.value, dimension)),
                    ("weight", .number(input.weight)), ("origin", .string(Self.origin(input.origin))), ("outlier", .bool(input.isOutlier))]
                if let learned = merged.learned {
                    members.append(("learned_weight", .number(OutputNumber.round3(learned.weights[input.provider] ?? 0))))
                    members.append(("correction", difference(learned.corrections[input.provider] ?? 0)))
                }
                return .object(members)
            })),
        ]
        if let learned = merged.learned {
            members.append(("interval_80", .array([number(learned.low, dimension), number(learned.high, dimension)])))
            members.append(("interval_basis", .string(learned.basis.rawValue)))
            members.append(("weighting", .string(learned.weighting.rawValue)))
        }
        let disagreement = merged.disagreement.flatMap { merged.inputs.count >= 2 ? $0 : nil }
        members.append(("disagreement", disagreement.map { disagreement in
            .object([("difference", difference(disagreement.difference)), ("floor", difference(disagreement.floor)),
                     ("exceeds_floor", .bool(disagreement.exceedsFloor))])
        } ?? .null))
        return .object(members)
    }

    static func origin(_ origin: ValueOrigin) -> String {
        switch origin {
        case .given: "given"
        case .interpolated: "interpolated"
        case .derived: "derived"
        }
    }

    /// How the condition was voted; the winner is the plain `condition` string beside it.
    private func conditionVotesJSON(_ merged: MergedConditionV1?) -> JSONOutput {
        guard let merged else { return .null }
        return .object([
            ("votes", .array(merged.votes.map { .object([("provider", .string($0.provider)), ("condition", .string($0.condition.id))]) })),
            ("missing", .array(merged.missing.map(JSONOutput.string))),
            ("demoted_from", .string(merged.demotedFrom?.id)), ("implausible", .bool(merged.isImplausible)),
            ("confidence", .number(OutputNumber.round3(merged.confidence))),
        ])
    }

    /// A merged hour: plain numbers under the same keys as a provider's hour, the merge's details under `merged`.
    private func consensusHourJSON(_ hour: ConsensusHour) -> JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("time", .string(CivilTime.iso(hour.time, utcOffsetSeconds: hour.utcOffsetSeconds))),
            ("lead_hours", .number(OutputNumber.round3(hour.leadHours))),
            ("confidence", .number(hour.confidence.map(OutputNumber.round3))),
            ("condition", .string(hour.condition?.value.id)),
        ]
        members += Quantity.allCases.map { ($0.rawValue, number(hour[$0]?.value, $0.dimension)) }
        let merged = [("condition", conditionVotesJSON(hour.condition))] + Quantity.allCases.map { ($0.rawValue, mergedJSON(hour[$0], $0.dimension)) }
        members.append(("merged", .object(merged)))
        return .object(members)
    }

    /// A merged day: plain numbers under the same keys as a provider's day, the merge's details under `merged`.
    private func consensusDayJSON(_ day: ConsensusDayV1) -> JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("date", .string(day.date.description)),
            ("start", .string(CivilTime.iso(day.start, utcOffsetSeconds: day.utcOffsetSeconds))), ("hours", .number(day.hours)),
            ("confidence", .number(day.confidence.map(OutputNumber.round3))), ("condition", .string(day.condition?.value.id)),
        ]
        let offset = day.utcOffsetSeconds
        members += DailyQuantity.allCases.map { ($0.rawValue, value(day[$0]?.value, $0.dimension, offset: offset)) }
        let phase = day.moonPhase
        members += [("moon_phase", .number(OutputNumber.round3(phase.fraction))), ("moon_phase_name", .string(phase.name)),
                    ("moon_illumination", .number(OutputNumber.round3(phase.illumination)))]
        let merged = [("condition", conditionVotesJSON(day.condition))]
            + DailyQuantity.allCases.map { ($0.rawValue, mergedJSON(day[$0], $0.dimension, offset: offset)) }
        members.append(("merged", .object(merged)))
        return .object(members)
    }

    /// Every provider asked, in display order: how its turn ended, its weight in the merge and where its answer came from.
    private func outcomesJSON(_ consensus: ConsensusResult, _ answered: Answers) -> JSONOutput {
        .array(inDisplayOrder(answered.outcomes, id: \.0).map { id, outcome in
            let report = answered.reports.first { $0.providerID == id }
            return .object([
                ("provider", .string(id)), ("status", .string(outcome.rawValue)),
                ("weight", .number(consensus.weights[id])), ("source", report.map { sourceJSON($0.source) } ?? .null),
                ("family", .string(consensus.families[id])), ("merge_weight", .number(consensus.mergeWeights[id].map(OutputNumber.round3))),
            ])
        })
    }

    private func consensusMembers(_ consensus: ConsensusResult, _ answered: Answers, place: Place) -> [(String, JSONOutput)] {
        let (reports, failed, skipped) = (answered.reports, answered.failed, answered.skipped)
        let offset = consensus.current?.utcOffsetSeconds ?? consensus.daily.first?.utcOffsetSeconds
            ?? reports.lazy.compactMap(\.utcOffsetSeconds).first ?? place.utcOffsetSeconds ?? 0
        var members: [(String, JSONOutput)] = [
            ("providers", .array(consensus.providers.map(JSONOutput.string))),
            ("failed_providers", .array(inDisplayOrder(failed, id: { $0 }).map(JSONOutput.string))),
            ("skipped_providers", .array(inDisplayOrder(skipped, id: { $0 }).map(JSONOutput.string))),
            ("outcomes", outcomesJSON(consensus, answered)),
            ("excluded", .array(consensus.excluded.map(JSONOutput.string))),
            ("zone", .string(consensus.zone.description)),
            ("zone_fallback_reason", .string(consensus.zoneFallbackReason)),
            ("utc_offset_seconds", .integer(offset)),
            ("timezone", .string(consensus.zone.identifier ?? reports.lazy.compactMap(\.timeZoneIdentifier).first)),
            ("units", unitsJSON),
        ]
        if let weighting = consensus.weighting { members.append(("weighting", .string(weighting.rawValue))) }
        let (wantsCurrent, days, hours) = context.view.sections
        if wantsCurrent { members.append(("current", consensus.current.map(consensusHourJSON) ?? .null)) }
        if days > 0 {
            let window = ForecastWindow(reports: reports, now: context.now, days: days)
            members.append(("daily", .array(window.dates(consensus.daily, utcOffsetSeconds: offset, date: \.date).map(consensusDayJSON))))
            if let hours {
                members.append(("hourly", .array(window.hours(consensus.hourly, time: \.time).prefix(hours).map(consensusHourJSON))))
            }
        }
        return members
    }
}
