import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// Writes one complete JSON object per line, flushed as each event happens (schema version 1, see docs/json-lines.md).
///
/// Each line describes the place of its event's request, so one renderer serves a run over many places. Lines are written
/// straight into bytes (`JSONOutputBuffer`), member by member, in the order the schema's documentation lists them.
public struct JSONLinesRenderer: Renderer, Sendable {
    /// The schema version every line carries.
    public static let schemaVersion = 1

    /// What one request's providers have said so far; its consensus line lists them.
    struct Answers: Sendable {
        var reports: [WeatherReport] = []
        var failed: [String] = []
        /// Providers not asked because the place lies outside their coverage.
        var skipped: [String] = []
        var outcomes: [(String, ProviderOutcome)] = []
        /// Every failure, skipped ones included, for the verdict.
        var errors: [(id: String, error: ProviderError)] = []
    }

    /// What the lines describe besides the events.
    let context: RenderContext
    private let output: any OutputSink
    private var answers: [RequestID: Answers] = [:]
    /// The line being written; its storage is kept from line to line.
    public var json = JSONOutputBuffer(capacity: 8192)
    /// The `units` object, the same on every line of a run.
    public let unitsText: [UInt8]
    /// Each provider's position in the display order.
    public let displayOrder: [String: Int]

    /// A renderer writing to `output`.
    public init(context: RenderContext, output: any OutputSink) {
        self.context = context
        self.output = output
        unitsText = Self.units(context.units).utf8()
        var order: [String: Int] = [:]
        for (index, provider) in context.providers.enumerated() where order[provider.id] == nil { order[provider.id] = index }
        // A provider whose sources have ids of their own (its failure's id) stands where its first source does.
        for provider in context.configured where order[provider.id] == nil { order[provider.id] = provider.sources.first.flatMap { order[$0] } }
        displayOrder = order
    }

    /// Writes the event's line and flushes.
    public mutating func handle(_ event: EngineEvent<ConsensusResult>) {
        handle(event, label: nil)
    }

    /// Writes the event's line, with the batch's `input_line` and `id` when labelled, and flushes.
    public mutating func handle(_ event: EngineEvent<ConsensusResult>, label: LineLabel?) {
        output.write(utf8: line(for: event, label: label))
        output.flush()
    }

    /// The event's line (ending in a line feed) as UTF-8, with the batch's `input_line` and `id` when labelled.
    public mutating func line(for event: EngineEvent<ConsensusResult>, label: LineLabel?) -> [UInt8] {
        json.removeAll()
        let request = event.request
        switch event {
        case .result(_, let result):
            let report = result.report
            answers[request.id, default: Answers()].reports.append(report)
            answers[request.id, default: Answers()].outcomes.append((report.providerID, ProviderOutcome(report.freshness)))
            beginLine("provider_result", request, label, provider: report.providerID)
            resultMembers(result, place: request.place)
        case .failure(_, let providerID, let error):
            // A provider whose coverage leaves the place out was not asked: skipped, not a failure.
            if error.reason == .outsideCoverage {
                answers[request.id, default: Answers()].skipped.append(providerID)
            } else {
                answers[request.id, default: Answers()].failed.append(providerID)
            }
            answers[request.id, default: Answers()].outcomes.append((providerID, ProviderOutcome(error)))
            answers[request.id, default: Answers()].errors.append((providerID, error))
            beginLine("provider_error", request, label, provider: providerID)
            json.key("status")
            json.string(ProviderOutcome(error).rawValue)
            json.key("error")
            errorObject(error)
        case .consensus(_, let consensus):
            let answered = answers.removeValue(forKey: request.id) ?? Answers()
            beginLine("consensus", request, label, provider: nil)
            consensusMembers(consensus, answered, place: request.place)
        }
        json.endObject()
        json.endLine()
        return json.bytes
    }

    /// Writes the air sources' comparison (`compare` with air sources) and flushes; nothing else is buffered.
    public mutating func finish() {
        if let air = context.air, context.view == .compare { output.write(AirComparison(air).line()) }
        output.flush()
    }

    /// `{"schema":1,"type":…`, the label, the place and the provider: the members every line of an event starts with.
    private mutating func beginLine(_ type: String, _ request: EngineRequest, _ label: LineLabel?, provider: String?) {
        json.beginLine(type, label: label)
        json.placeMember(request.place, query: label?.query ?? context.query, runnersUp: label?.runnersUp ?? context.runnersUp)
        if let provider {
            json.key("provider")
            json.string(provider)
            json.key("provider_name")
            json.string(context.name(of: provider))
        }
    }

    mutating func sourceObject(_ source: DataSource) {
        json.beginObject()
        json.key("kind")
        switch source {
        case .live: json.string("live")
        case .replay(let recordedAt):
            json.string("replay")
            json.key("recorded_at")
            json.isoTime(recordedAt, utcOffsetSeconds: 0)
        }
        json.endObject()
    }

    /// The `units` object of a line: each quantity's symbol in `system`.
    public static func units(_ system: UnitSystem) -> JSONOutput {
        var members = Quantity.weather.map { ($0.rawValue, JSONOutput.string(system.symbol(for: $0))) }
        members += DailyQuantity.allCases.map { ($0.rawValue, JSONOutput.string(system.symbol(for: $0))) }
        members.append(("precipitation", .string(system.symbol(.precipitationAmount))))
        return .object(members)
    }

    /// A number in the chosen units, rounded to 3 decimals; null when absent.
    public mutating func number(_ value: Double?, _ dimension: Dimension) {
        json.number(value.map { OutputNumber.converted($0, dimension, context.units) })
    }

    /// A value of a quantity: a number in the chosen units, or for instants a local ISO-8601 time at `offset`.
    public mutating func value(_ value: Double?, _ dimension: Dimension, offset: Int) {
        guard dimension == .instant else { return number(value, dimension) }
        guard let value else { return json.null() }
        json.isoTime(Date(timeIntervalSince1970: value.rounded()), utcOffsetSeconds: offset)
    }

    /// The quantities a provider computed rather than gave, by name (`dew_point` from temperature and humidity).
    private mutating func derivedNames(_ names: [String]) { json.strings(names.sorted()) }

    private mutating func resultMembers(_ result: ProviderResult, place: Place) {
        let report = result.report
        let offset = report.utcOffsetSeconds ?? place.utcOffsetSeconds ?? 0
        json.key("status")
        json.string(ProviderOutcome(report.freshness).rawValue)
        switch report.freshness {
        case .fresh:
            // Asked again and confirmed unchanged by a 304: the kept body was used, no new one was sent.
            if report.caching?.revalidated == true {
                json.key("revalidated")
                json.bool(true)
            }
        case .cached(let age):
            json.key("age_s")
            json.number(age.rounded())
        case .stale(let age, let because):
            json.key("age_s")
            json.number(age.rounded())
            json.key("stale_because")
            json.string(because)
        }
        json.key("source")
        sourceObject(report.source)
        json.key("fetched_at")
        json.isoTime(report.fetchedAt, utcOffsetSeconds: 0)
        json.key("utc_offset_seconds")
        json.integer(report.utcOffsetSeconds)
        json.key("timezone")
        json.string(report.timeZoneIdentifier)
        json.key("units")
        json.serialized(unitsText)
        json.key("attribution")
        json.string(context.attributions[report.providerID])
        if !result.notes.isEmpty {
            json.key("notes")
            json.beginArray()
            for note in result.notes {
                json.beginObject()
                json.key("code")
                json.string(note.code)
                json.key("message")
                json.string(ResultNoteText.sentence(note, place: place))
                json.endObject()
            }
            json.endArray()
        }
        let warnings = result.notes.compactMap { note -> ValueWarning? in
            if case .droppedValue(let warning) = note { warning } else { nil }
        }
        if !warnings.isEmpty {
            json.key("warnings")
            json.beginArray()
            for warning in warnings {
                json.beginObject()
                json.key("field")
                json.string(warning.field)
                json.key("path")
                json.string(warning.path)
                json.key("value")
                json.string(warning.value)
                json.key("reason")
                json.string(warning.reason)
                json.endObject()
            }
            json.endArray()
        }
        let (wantsCurrent, days, hours) = context.view.sections
        if wantsCurrent {
            json.key("current")
            if let current = report.current { sampleObject(current, offset: offset) } else { json.null() }
        }
        if days > 0 {
            let window = ForecastWindow(source: report.source, now: context.now, days: days)
            json.key("daily")
            json.beginArray()
            for day in window.dates(result.days, utcOffsetSeconds: offset, date: \.date) { dayObject(day, offset: offset) }
            json.endArray()
            if let hours {
                json.key("hourly")
                json.beginArray()
                for sample in window.hours(report.hourly, time: \.time).prefix(hours) { sampleObject(sample, offset: offset) }
                json.endArray()
            }
        }
    }

    private mutating func sampleObject(_ sample: WeatherSample, offset: Int) {
        json.beginObject()
        json.key("time")
        json.isoTime(sample.time, utcOffsetSeconds: offset)
        json.key("period_hours")
        json.number(sample.periodHours)
        json.key("condition")
        json.string(sample.condition?.id)
        for quantity in Quantity.weather {
            json.key(text: quantity.rawValue)
            number(sample[quantity], quantity.dimension)
        }
        json.key("precipitation")
        number(sample.precipitationMM, .precipitationAmount)
        json.key("is_day")
        json.bool(sample.isDay)
        json.key("derived_fields")
        derivedNames(sample.derivedQuantities.map(\.rawValue))
        json.endObject()
    }

    private mutating func dayObject(_ day: DailyPoint, offset: Int) {
        json.beginObject()
        json.key("date")
        json.isoDate(day.date)
        json.key("condition")
        json.string(day.condition?.id)
        for quantity in DailyQuantity.allCases {
            json.key(text: quantity.rawValue)
            value(day[quantity], quantity.dimension, offset: offset)
        }
        json.key("derived")
        json.bool(day.isDerived)
        json.key("derived_fields")
        derivedNames(day.derivedQuantities.map(\.rawValue))
        json.endObject()
    }

    private mutating func errorObject(_ error: ProviderError) {
        json.beginObject()
        json.key("code")
        json.string(error.codeName)
        json.key("message")
        json.string(error.message)
        if let reason = error.reason {
            json.key("reason")
            json.string(reason.rawValue)
        }
        switch error.code {
        case .rateLimited(let retryAfter):
            json.key("retry_after_s")
            json.number(retryAfter.map(OutputNumber.round3))
        case .badResponse(let path):
            json.key("path")
            json.string(path)
        default: break
        }
        json.endObject()
    }

    /// Items sorted as the providers are listed, whatever order they finished in.
    public func inDisplayOrder<T>(_ items: [T], id: (T) -> String) -> [T] {
        items.sorted { (displayOrder[id($0)] ?? .max) < (displayOrder[id($1)] ?? .max) }
    }

    static func origin(_ origin: ValueOrigin) -> String {
        switch origin {
        case .given: "given"
        case .interpolated: "interpolated"
        case .derived: "derived"
        }
    }
}
