import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// The CSV columns and rows of weather output: one row per place × source × time, the consensus as source `consensus`.
///
/// It is fed engine events and keeps what it needs between them (each request's answers, for the consensus's window), so
/// that one writer serves one place or many; columns such as an input's id can be put before the standard ones.
public struct CSVRows: Sendable {
    /// Which part of a forecast a row holds.
    public enum Kind: String, Sendable {
        case current, hourly, daily
    }

    private let view: View
    private let units: UnitSystem
    private let now: Date
    private let leadingColumns: [String]
    private var reports: [RequestID: [WeatherReport]] = [:]

    /// A writer for `view` in `units`; `leadingColumns` name the values each call of `rows` puts first.
    public init(view: View, units: UnitSystem, now: Date, leadingColumns: [String] = []) {
        self.view = view
        self.units = units
        self.now = now
        self.leadingColumns = leadingColumns
    }

    /// The header's column names, units in the names (`temperature_c`, or `temperature_f` in imperial units); after `error`,
    /// the ends of each quantity's 80 % interval (`temperature_low80_c`, `temperature_high80_c`, …) and `interval_basis`.
    public var columns: [String] {
        leadingColumns + ["place", "admin_area", "country_code", "latitude", "longitude", "source", "status", "kind", "date", "time", "condition"]
            + Quantity.weather.map { column($0.rawValue, units.symbol(for: $0)) } + [column("precipitation", units.symbol(.precipitationAmount))]
            + DailyQuantity.allCases.map { column($0.rawValue, units.symbol(for: $0)) } + ["moon_phase", "moon_phase_name", "confidence", "error"]
            + Self.hourlyIntervals.flatMap { [column($0.rawValue + "_low80", units.symbol(for: $0)), column($0.rawValue + "_high80", units.symbol(for: $0))] }
            + Self.dailyIntervals.flatMap { [column($0.rawValue + "_low80", units.symbol(for: $0)), column($0.rawValue + "_high80", units.symbol(for: $0))] }
            + ["interval_basis"]
    }

    /// The hour's quantities whose consensus may carry an 80 % interval: all but the wind's direction.
    public static let hourlyIntervals = Quantity.weather.filter { $0.spec.interpolation != .circular }
    /// The day's quantities whose consensus may carry an 80 % interval: its amounts, not its sun times or dominant direction.
    public static let dailyIntervals = DailyQuantity.allCases.filter { !$0.spec.circular && $0.dimension != .instant }
    /// The interval columns, empty: on providers' rows, and where the consensus has no interval.
    private static let noIntervals = [String?](repeating: nil, count: 2 * (hourlyIntervals.count + dailyIntervals.count) + 1)

    /// The header line.
    public var header: String { CSVField.line(columns) }

    /// The lines of one event, after `leading` (one value per leading column).
    public mutating func lines(for event: EngineEvent<ConsensusResult>, leading: [String?] = []) -> String {
        rows(for: event).map { CSVField.line(leading + $0) }.joined()
    }

    /// A batch's bad input line as a row: after `leading`, no place, source `input_error`, status `error` and the error's code.
    public func inputErrorLine(leading: [String?], code: String) -> String {
        var row = leading + [String?](repeating: nil, count: columns.count - leadingColumns.count)
        row[leadingColumns.count + 5] = "input_error"
        row[leadingColumns.count + 6] = "error"
        row[columns.count - Self.noIntervals.count - 1] = code
        return CSVField.line(Array(row.prefix(columns.count)))
    }

    /// The rows of one event, without the leading columns; nil is an empty cell.
    public mutating func rows(for event: EngineEvent<ConsensusResult>) -> [[String?]] {
        let place = placeCells(event.request.place)
        switch event {
        case .result(let request, let result):
            reports[request.id, default: []].append(result.report)
            let status = ProviderOutcome(result.report.freshness).rawValue
            return providerRows(result, place: event.request.place).map {
                place + [result.report.providerID, status] + $0 + [nil, nil] + Self.noIntervals
            }
        case .failure(_, let provider, let error):
            let empty = [String?](repeating: nil, count: columns.count - leadingColumns.count - place.count - 4 - Self.noIntervals.count)
            return [place + [provider, ProviderOutcome(error).rawValue] + empty + [nil, error.codeName] + Self.noIntervals]
        case .consensus(let request, let consensus):
            let answered = reports.removeValue(forKey: request.id) ?? []
            return consensusRows(consensus, reports: answered, place: event.request.place).map { cells, intervals in
                place + ["consensus", nil] + cells + [nil] + intervals
            }
        }
    }

    private func column(_ name: String, _ symbol: String) -> String { name + "_" + Self.unitSuffix(symbol) }

    /// A unit symbol as a column-name suffix: `°C` → `c`, `m/s` → `m_s`, `%` → `pct`, `°` → `deg`.
    public static func unitSuffix(_ symbol: String) -> String {
        switch symbol {
        case "%": "pct"
        case "°": "deg"
        default: String(symbol.lowercased().filter { $0 != "°" }.map { $0 == "/" ? "_" : $0 })
        }
    }

    private func placeCells(_ place: Place) -> [String?] {
        [place.name, place.adminArea, place.countryCode, CSVField.number(place.coordinate.latitude), CSVField.number(place.coordinate.longitude)]
    }

    private func number(_ value: Double?, _ dimension: Dimension) -> String? {
        value.map { CSVField.number(OutputNumber.converted($0, dimension, units)) }
    }

    /// A day's value: a number, or for an instant (sunrise, sunset) its local ISO-8601 time at `offset`.
    private func dayValue(_ value: Double?, _ dimension: Dimension, offset: Int) -> String? {
        guard dimension == .instant else { return number(value, dimension) }
        return value.map { CivilTime.iso(Date(timeIntervalSince1970: $0.rounded()), utcOffsetSeconds: offset) }
    }

    private var emptyHour: [String?] { [String?](repeating: nil, count: Quantity.weather.count + 1) }
    /// The day's quantities and the moon (its phase, on the consensus's days only), empty.
    private var emptyDay: [String?] { [String?](repeating: nil, count: DailyQuantity.allCases.count + 2) }

    /// kind, date, time, condition, the hour's quantities, precipitation, the day's quantities.
    private func providerRows(_ result: ProviderResult, place: Place) -> [[String?]] {
        let report = result.report
        let offset = report.utcOffsetSeconds ?? place.utcOffsetSeconds ?? 0
        let sample = { (kind: Kind, sample: WeatherSample) -> [String?] in
            [kind.rawValue, LocalDate(sample.time, utcOffsetSeconds: offset).description, CivilTime.iso(sample.time, utcOffsetSeconds: offset),
             sample.condition?.id]
                + Quantity.weather.map { number(sample[$0], $0.dimension) } + [number(sample.precipitationMM, .precipitationAmount)] + emptyDay
        }
        let (wantsCurrent, days, hours) = view.sections
        var rows: [[String?]] = []
        if wantsCurrent, let current = report.current { rows.append(sample(.current, current)) }
        if days > 0 {
            let window = ForecastWindow(source: report.source, now: now, days: days)
            rows += window.dates(result.days, utcOffsetSeconds: offset, date: \.date).map { day in
                [Kind.daily.rawValue, day.date.description, nil, day.condition?.id] + emptyHour
                    + DailyQuantity.allCases.map { dayValue(day[$0], $0.dimension, offset: offset) } + [nil, nil]
            }
            if let hours { rows += window.hours(report.hourly, time: \.time).prefix(hours).map { sample(.hourly, $0) } }
        }
        return rows
    }

    /// kind … the day's quantities, confidence: the merged values; and apart, the row's interval cells.
    private func consensusRows(_ consensus: ConsensusResult, reports: [WeatherReport], place: Place) -> [(cells: [String?], intervals: [String?])] {
        let offset = consensus.current?.utcOffsetSeconds ?? consensus.daily.first?.utcOffsetSeconds
            ?? reports.lazy.compactMap(\.utcOffsetSeconds).first ?? place.utcOffsetSeconds ?? 0
        let hour = { (kind: Kind, hour: ConsensusHour) -> (cells: [String?], intervals: [String?]) in
            ([kind.rawValue, LocalDate(hour.time, utcOffsetSeconds: hour.utcOffsetSeconds).description,
              CivilTime.iso(hour.time, utcOffsetSeconds: hour.utcOffsetSeconds), hour.condition?.value.id]
                + Quantity.weather.map { number(hour[$0]?.value, $0.dimension) } + [nil] + emptyDay
                + [hour.confidence.map { CSVField.number(OutputNumber.round3($0)) }],
             intervals(hourly: Self.hourlyIntervals.map { (hour[$0], $0.dimension) }, daily: []))
        }
        let (wantsCurrent, days, hours) = view.sections
        var rows: [(cells: [String?], intervals: [String?])] = []
        if wantsCurrent, let current = consensus.current { rows.append(hour(.current, current)) }
        if days > 0 {
            let window = ForecastWindow(reports: reports, now: now, days: days)
            rows += window.dates(consensus.daily, utcOffsetSeconds: offset, date: \.date).map { day in
                ([Kind.daily.rawValue, day.date.description, nil, day.condition?.value.id] + emptyHour
                    + DailyQuantity.allCases.map { dayValue(day[$0]?.value, $0.dimension, offset: day.utcOffsetSeconds) }
                    + [CSVField.number(OutputNumber.round3(day.moonPhase.fraction)), day.moonPhase.name]
                    + [day.confidence.map { CSVField.number(OutputNumber.round3($0)) }],
                 intervals(hourly: [], daily: Self.dailyIntervals.map { (day[$0], $0.dimension) }))
            }
            if let hours { rows += window.hours(consensus.hourly, time: \.time).prefix(hours).map { hour(.hourly, $0) } }
        }
        return rows
    }

    /// The interval cells of a consensus row: each quantity's low and high end (the hour's, or the day's, the others empty),
    /// then the basis: `record` or `spread` when every interval on the row has it, `mixed` otherwise, empty without intervals.
    private func intervals(hourly: [(MergedField?, Dimension)], daily: [(MergedField?, Dimension)]) -> [String?] {
        var bases = Set<IntervalBasis>()
        func ends(_ fields: [(MergedField?, Dimension)], count: Int) -> [String?] {
            guard !fields.isEmpty else { return [String?](repeating: nil, count: 2 * count) }
            return fields.flatMap { field, dimension -> [String?] in
                guard let learned = field?.learned else { return [nil, nil] }
                bases.insert(learned.basis)
                return [number(learned.low, dimension), number(learned.high, dimension)]
            }
        }
        let cells = ends(hourly, count: Self.hourlyIntervals.count) + ends(daily, count: Self.dailyIntervals.count)
        let basis: String? = bases.count > 1 ? "mixed" : bases.first?.rawValue
        return cells + [basis]
    }
}

/// RFC 4180 fields: quoted when they hold a comma, a quote or a line break, quotes doubled; nil is an empty cell.
public enum CSVField: Sendable {
    /// One field as written.
    public static func quoted(_ value: String?) -> String {
        guard let value else { return "" }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return value }
        return "\"" + value.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// A record: the fields joined by commas, ended by a line feed.
    public static func line(_ values: [String?]) -> String { values.map(quoted).joined(separator: ",") + "\n" }

    /// A number in its shortest round-trip form.
    public static func number(_ value: Double) -> String { JSONOutput.format(value) }
}
