import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// Buffers every event and draws tables for people at the end, times in the place's local time.
public struct TableRenderer: Renderer, Sendable {
    let context: RenderContext
    private let output: any OutputSink
    private var events = CollectedEvents()
    private var reports: [WeatherReport] { events.reports }
    private var consensus: ConsensusResult? { events.consensus }
    private let style: Style

    /// A renderer writing to `output`.
    public init(context: RenderContext, output: any OutputSink) {
        self.context = context
        self.output = output
        style = Style(enabled: context.color)
    }

    /// Keeps the event for the final drawing.
    public mutating func handle(_ event: EngineEvent<ConsensusResult>) { events.collect(event) }

    /// Draws the view, then failures and the replay notice.
    public mutating func finish() {
        let ordered = events.answers(in: context)
        var text = heading() + "\n"
        if let consensus, !ordered.isEmpty {
            switch context.view {
            case .compare: text += compareTable(ordered, consensus)
            case .now: text += nowSummary(ordered, consensus)
            case .forecast(let days, let hourly): text += forecastTables(ordered, consensus, days: days, hours: hourly ? days * 24 : nil)
            case .detail:
                text += nowSummary(ordered, consensus) + "\n"
                text += forecastTables(ordered, consensus, days: 5, hours: 12)
            }
            text += Self.weightingNote(consensus.weighting)
        } else if context.view == .compare, let air = context.air.map(AirComparison.init) {
            // No weather to compare, but the air sources answered.
            text += air.table(width: context.width, style: style)
        }
        for failure in events.failures(in: context) {
            let name = context.failureName(of: failure.id)
            if failure.error.reason == .outsideCoverage {
                text += style.dim("\(name): not asked — \(context.place.name) is outside its coverage") + "\n"
                continue
            }
            let (label, message) = context.told(failure.error, by: context.name(of: failure.id))
            text += style.red("\(name): \(label) — \(message)") + "\n"
        }
        for (id, note) in events.notes { text += style.red("\(context.name(of: id)): \(ResultNoteText.sentence(note, place: context.place))") + "\n" }
        text += staleNotice(ordered)
        text += replayNotice(ordered)
        text += attributionLine(ordered)
        if let verdict = events.verdict(in: context) { text += style.bold(verdict.line) + "\n" }
        output.write(TextWrap.fit(text, width: context.width))
        output.flush()
    }

    // MARK: Pieces

    /// The credits the licences of the providers shown ask for, on one line.
    private func attributionLine(_ shown: [WeatherReport]) -> String {
        let credits = context.credits(of: shown)
        return credits.isEmpty ? "" : "Data: \(credits.joined(separator: "; "))\n"
    }

    /// The offset now (the current conditions' or the first day's), for the heading.
    private var offset: Int {
        consensus?.current?.utcOffsetSeconds ?? consensus?.daily.first?.utcOffsetSeconds
            ?? reports.lazy.compactMap(\.utcOffsetSeconds).first ?? context.place.utcOffsetSeconds ?? 0
    }

    private func heading() -> String {
        let place = context.place
        let coordinate = "\(JSONOutput.format(place.coordinate.latitude)), \(JSONOutput.format(place.coordinate.longitude))"
        let zone = consensus?.zone.identifier ?? place.timeZoneIdentifier
        let zoneText = [zone, "UTC\(CivilTime.offsetText(offset))"].compactMap { $0 }.joined(separator: " ")
        let name = [place.name, place.adminArea, place.countryCode].compactMap { $0 }.joined(separator: ", ")
        return style.bold(name) + "  \(coordinate)  \(zoneText)\n"
    }

    func unit(_ dimension: Dimension) -> String { context.units.symbol(dimension) }

    func format(_ value: Double?, _ dimension: Dimension) -> String {
        guard let value else { return "–" }
        if dimension == .direction { return Compass.text(context.units.convert(value, dimension)) }
        return Self.fixed(context.units.convert(value, dimension), decimals: context.units.decimals(dimension))
    }

    /// The spread of the values that made the consensus, with the spread of every value after it when an outlier was
    /// left out (`1.6 (4.5 with *)`), and `!` when two providers differ by more than the quantity's floor.
    func formatSpread(_ merged: MergedField?, _ dimension: Dimension) -> String {
        guard let merged, merged.inputs.count > 1 else { return "" }
        func text(_ spread: Double) -> String {
            Self.fixed(context.units.convertDifference(spread, dimension), decimals: context.units.decimals(dimension))
                + (dimension == .direction ? "°" : "")
        }
        var cell = text(merged.spreadWithoutOutliers(circular: dimension == .direction))
        if !merged.outliers.isEmpty { cell += " (\(text(merged.spread)) with *)" }
        return merged.disagreement?.exceedsFloor == true && merged.inputs.count >= 2 ? cell + " !" : cell
    }

    /// The consensus value with the providers' range when several contributed: `1.2 (0.9…1.5)`; `*` when an outlier was left out.
    func formatMerged(_ merged: MergedField?, _ dimension: Dimension) -> String {
        guard let merged else { return "–" }
        let value = format(merged.value, dimension) + (merged.outliers.isEmpty ? "" : "*")
        let low = format(merged.min, dimension)
        let high = format(merged.max, dimension)
        guard merged.inputs.count > 1, low != high else { return value }
        return "\(value) (\(low)…\(high))"
    }

    /// A provider's value in the compare table, marked when the merge left it out as an outlier.
    func formatInput(_ value: Double?, _ merged: MergedField?, provider: String, _ dimension: Dimension) -> String {
        let text = format(value, dimension)
        guard merged?.outliers.contains(provider) == true else { return text }
        return style.red(text + "*")
    }

    /// The footer saying how the consensus was weighted, when weights are learned (`--weights auto`); empty otherwise.
    public static func weightingNote(_ weighting: Weighting?) -> String {
        switch weighting {
        case nil: ""
        case .learned?: "Weights learned from the forecast archive per quantity and lead time (isobar verify shows the record).\n"
        case .learnedCorrected?:
            "Weights and bias corrections learned from the forecast archive per quantity and lead time (isobar verify shows the record).\n"
        case .equalTooLittleHistory?: "Weights: equal (too little history in the forecast archive to learn from yet).\n"
        }
    }

    static func percent(_ confidence: Double?) -> String {
        confidence.map { "\(Int(($0 * 100).rounded()))%" } ?? "–"
    }

    private func compareTable(_ reports: [WeatherReport], _ consensus: ConsensusResult) -> String {
        let names = reports.map { context.name(of: $0.providerID) }
        let columns = Self.compareColumns(names: names)
        let current = consensus.current
        var rows: [CompareRow] = []
        if reports.contains(where: { $0.freshness != .fresh }) {
            rows.append(CompareRow("Status", reports.map { Self.status($0.freshness) }, "", "", ""))
        }
        rows.append(CompareRow("Observed at", reports.map { report in
            report.current.map { CivilTime.clock($0.time, utcOffsetSeconds: offset) } ?? "–"
        }, current.map { CivilTime.clock($0.time, utcOffsetSeconds: $0.utcOffsetSeconds) } ?? "–", "", Self.percent(current?.confidence)))
        let condition = current?.condition
        let conditionNote = condition?.isImplausible == true ? "implausible \(condition?.demotedFrom?.label ?? "")" : disagreement(condition)
        rows.append(CompareRow("Condition", reports.map { $0.current?.condition?.label ?? "–" },
                               condition?.value.label ?? "–", conditionNote, Self.percent(condition?.confidence)))
        for quantity in Quantity.weather where quantity != .precipitationProbability {
            let merged = current?[quantity]
            rows.append(CompareRow(quantity.dimension == .direction ? quantity.label : "\(quantity.label) (\(context.units.symbol(for: quantity)))",
                                   reports.map { formatInput($0.current?[quantity], merged, provider: $0.providerID, quantity.dimension) },
                                   merged.map { format($0.value, quantity.dimension) } ?? "–", formatSpread(merged, quantity.dimension),
                                   merged.map { Self.percent($0.confidence) } ?? ""))
        }
        if let merged = current?[.temperature], let learned = merged.learned {
            let dimension = Quantity.temperature.dimension
            rows.append(CompareRow("80 % interval (\(unit(dimension)))", reports.map { _ in "" },
                                   "\(format(learned.low, dimension))…\(format(learned.high, dimension))", learned.basis.rawValue, ""))
        }
        var table = columns.table(rows, narrowing: TableLayouts.compare(columns, units: context.units))
        // Providers' and the consensus' values are never cut: with many sources the table is split into parts instead.
        table.uncut = Set(1...names.count + 1)
        var text = table.render(width: context.width, bold: style.bold)
        var allFields = current.map { Array($0.values.values) } ?? []
        // The air sources' rows follow in a table of their own: their sources are others than the weather's.
        if let air = context.air.map(AirComparison.init) {
            text += "\n" + air.table(width: context.width, style: style)
            allFields += air.fields
        }
        if allFields.contains(where: { !$0.outliers.isEmpty }) { text += "* left out of the consensus and of the Spread as an outlier\n" }
        if allFields.contains(where: { $0.disagreement?.exceedsFloor == true && $0.inputs.count >= 2 }) {
            text += "! the providers disagree by more than usual for this quantity\n"
        }
        return text
    }

    private func disagreement(_ condition: MergedConditionV1?) -> String {
        guard let condition, Set(condition.votes.map(\.condition)).count > 1 else { return "" }
        return "differs"
    }

    private func nowSummary(_ reports: [WeatherReport], _ consensus: ConsensusResult) -> String {
        guard let current = consensus.current else { return "No current conditions.\n" }
        let values = current.values
        func part(_ label: String, _ quantity: Quantity) -> String? {
            values[quantity].map { "\(label) \(format($0.value, quantity.dimension)) \(context.units.symbol(for: quantity))" }
        }
        let time = CivilTime.clock(current.time, utcOffsetSeconds: current.utcOffsetSeconds)
        var lines = [style.bold("Now (\(time))") + "  " + [
            current.condition.map { $0.value.label.capitalizedFirst },
            values[.temperature].map { "\(format($0.value, .temperature)) \(unit(.temperature))" },
            part("feels like", .apparentTemperature),
        ].compactMap { $0 }.joined(separator: ", ")]
        let wind = values[.windSpeed].map { speed in
            var text = "Wind \(format(speed.value, .speed)) \(unit(.speed))"
            if let direction = values[.windDirection] { text += " from \(format(direction.value, .direction))" }
            if let gust = values[.windGust] { text += ", gusts \(format(gust.value, .speed)) \(unit(.speed))" }
            return text
        }
        lines.append([part("Humidity", .humidity), wind, part("Pressure", .pressure), part("Cloud cover", .cloudCover),
                      part("Visibility", .visibility), part("Precipitation", .precipitationRate)].compactMap { $0 }.joined(separator: " · "))
        let perProvider = reports.map { report in
            let temperature = report.current?.temperatureC.map { "\(format($0, .temperature)) \(unit(.temperature))" } ?? "–"
            return "\(context.name(of: report.providerID)) \(temperature) \(report.current?.condition?.label ?? "")".trimmingTrailingSpaces()
        }
        var sources = "From \(reports.count) provider\(reports.count == 1 ? "" : "s"): " + perProvider.joined(separator: " · ")
        if let temperature = values[.temperature], temperature.inputs.count > 1 {
            let spread = Self.fixed(context.units.convertDifference(temperature.spreadWithoutOutliers(circular: false), .temperature),
                                    decimals: context.units.decimals(.temperature))
            let outliers = temperature.outliers.map { context.name(of: $0) }
            sources += " (spread \(spread) \(unit(.temperature))"
                + (outliers.isEmpty ? "" : " without \(PlainWords.list(outliers)), left out as an outlier")
                + (temperature.disagreement?.exceedsFloor == true ? " !" : "") + ")"
        }
        sources += "; confidence \(Self.percent(current.confidence))"
        lines.append(sources)
        return lines.joined(separator: "\n") + "\n"
    }

    private func forecastTables(_ reports: [WeatherReport], _ consensus: ConsensusResult, days: Int, hours limit: Int?) -> String {
        let window = ForecastWindow(reports: reports, now: context.now, days: days)
        let dailyColumns = self.dailyColumns
        let daily = dailyColumns.table(window.dates(consensus.daily, utcOffsetSeconds: offset, date: \.date),
                                       narrowing: TableLayouts.daily(dailyColumns))
        var text = style.bold("Daily consensus") + " in \(consensus.zone) (value, with the providers' range in brackets; * an outlier left out)\n"
            + daily.render(width: context.width, bold: style.bold)
        text += "\n" + sunTable(window.dates(consensus.daily, utcOffsetSeconds: offset, date: \.date))
        guard let limit else { return text }
        let hourlyColumns = self.hourlyColumns
        let hours = hourlyColumns.table(Array(window.hours(consensus.hourly, time: \.time).prefix(limit)),
                                        narrowing: TableLayouts.hourly(hourlyColumns))
        text += "\n" + style.bold("Hourly consensus") + "\n" + hours.render(width: context.width, bold: style.bold)
        return text
    }

    /// The days' sun, UV and moon: the UV peak (with the providers' range), sunrise and sunset on the place's clock (`*`: a
    /// provider left out as an outlier), the daylight, and the moon's phase (computed here) with the share of it lit.
    private func sunTable(_ days: [ConsensusDayV1]) -> String {
        let columns = sunColumns
        let table = columns.table(days, narrowing: TableLayouts.sun(columns))
        return style.bold("Sun, UV and moon") + "\n" + table.render(width: context.width, bold: style.bold)
    }

    /// `8 h 05 min`: a duration in seconds, to the minute.
    public static func hoursAndMinutes(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 1e9 else { return "–" }
        let minutes = Int((seconds / 60).rounded())
        let rest = minutes % 60
        return "\(minutes / 60) h \(rest < 10 ? "0" : "")\(rest) min"
    }

    private func staleNotice(_ reports: [WeatherReport]) -> String {
        reports.compactMap { report -> String? in
            guard case .stale(let age, let because) = report.freshness else { return nil }
            return style.yellow("\(context.name(of: report.providerID)): stale answer from the cache, \(Self.ageText(age)) old — \(because)") + "\n"
        }.joined()
    }

    static func status(_ freshness: Freshness) -> String {
        switch freshness {
        case .fresh: "ok"
        case .cached(let age): "cached \(ageText(age))"
        case .stale(let age, _): "STALE \(ageText(age))"
        }
    }

    /// `42 s`, `5 min`, `3 h`, `2 d`: an age as tables show it.
    public static func ageText(_ seconds: Double) -> String {
        switch seconds {
        case ..<120: "\(Int(seconds)) s"
        case ..<7200: "\(Int(seconds / 60)) min"
        case ..<172_800: "\(Int(seconds / 3600)) h"
        default: "\(Int(seconds / 86_400)) d"
        }
    }

    private func replayNotice(_ reports: [WeatherReport]) -> String {
        guard let replays = ReplayNotice.clauses(ReplayNotice.replays(reports, name: context.name(of:))) else { return "" }
        return style.yellow("Replayed data, not live: " + replays) + "\n"
    }

    // MARK: Text helpers

    /// `value` with exactly `decimals` decimals (`–` when it is not finite).
    public static func fixed(_ value: Double, decimals: Int) -> String {
        // Beyond what an Int holds (no physical value is), the shortest form rather than a crash.
        guard value.isFinite, abs(value) < 1e15 else { return value.isFinite ? JSONOutput.format(value) : "–" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        let negative = rounded < 0
        let magnitude = abs(rounded)
        let whole = Int(magnitude)
        var text = String(whole)
        if decimals > 0 {
            let fraction = Int(((magnitude - Double(whole)) * scale).rounded())
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: max(0, decimals - digits.count)) + digits
        }
        return negative && rounded != 0 ? "-" + text : text
    }

    /// The month's short English name (1 is `Jan`).
    public static func monthName(_ month: Int) -> String {
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][month - 1]
    }

    static func utcText(_ instant: Date) -> String {
        let day = LocalDate(instant, utcOffsetSeconds: 0)
        return "\(day) \(CivilTime.clock(instant, utcOffsetSeconds: 0)) UTC"
    }
}

extension String {
    /// The text with its first letter in upper case.
    public var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
    /// The text with each underscore a space (`rate_limited` → `rate limited`).
    public var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}
