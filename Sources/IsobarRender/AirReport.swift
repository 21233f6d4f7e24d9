import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// What `isobar air` shows: the merged concentrations now and hour by hour, the indices Isobar computes from them, and what
/// each source said (its values and its own index), gathered before anything is rendered.
public struct AirReport: Sendable {
    /// One source's answer.
    public struct Source: Sendable {
        /// Its id.
        public var id: String
        /// Its name.
        public var name: String
        /// Its current values.
        public var current: WeatherSample?
        /// How old its answer is, when it came from the cache.
        public var freshness: Freshness
        /// Live, or replayed from a recording.
        public var source: DataSource = .live
    }

    /// Merged values at one instant with their indices.
    public struct Moment: Sendable {
        /// The instant (UTC).
        public var time: Date
        /// Merged concentrations and pollen counts.
        public var values: [Quantity: MergedField]
        /// The index on each scale that has breakpoints for a pollutant given, in `AirIndexScale.allCases` order.
        public var indices: [AirIndexValue]

        /// The index on `scale`, when there is one.
        public func index(_ scale: AirIndexScale) -> AirIndexValue? { indices.first { $0.scale == scale } }
    }

    /// One local day: the worst hour on each scale, and the highest pollen counts.
    public struct Day: Sendable {
        /// The local date.
        public var date: LocalDate
        /// The worst hourly index on each scale, with its hour.
        public var worst: [(index: AirIndexValue, time: Date)]
        /// The highest count of each pollen given that day.
        public var pollen: [Quantity: Double]
        /// The day's US AQI on the EPA's averaging periods (see `USAirQualityDailyIndex`); nil without enough hours.
        public var usAQI: AirIndexValue?
    }

    /// The place.
    public var place: Place
    /// The place's UTC offset, for local times.
    public var utcOffsetSeconds: Int
    /// The sources that answered, in configuration order.
    public var sources: [Source]
    /// The sources that did not, with why, in configuration order.
    public var failures: [(id: String, message: String)]
    /// Merged values now.
    public var current: Moment?
    /// Merged hours from now on.
    public var hourly: [Moment]

    /// Builds the report from the merge and the sources' answers; `now` decides which hours are ahead.
    public init(place: Place, consensus: ConsensusResult?, reports: [WeatherReport], names: [String: String],
         failures: [(id: String, message: String)], now: Date) {
        self.place = place
        // The sources' offset at the time of their answer (a recording's season), else the place's now.
        utcOffsetSeconds = reports.compactMap(\.utcOffsetSeconds).first ?? place.utcOffsetSeconds ?? 0
        sources = reports.map {
            Source(id: $0.providerID, name: names[$0.providerID] ?? $0.providerID, current: $0.current, freshness: $0.freshness, source: $0.source)
        }
        self.failures = failures
        current = consensus?.current.map(Self.moment)
        hourly = (consensus?.hourly ?? []).filter { $0.time > now.addingTimeInterval(-3600) }.map(Self.moment).filter { !$0.values.isEmpty }
    }

    /// The merged air values of an hour with their indices.
    public static func moment(_ hour: ConsensusHour) -> Moment {
        var values: [Quantity: MergedField] = [:]
        for quantity in Quantity.air { values[quantity] = hour[quantity] }
        let indices = AirIndexScale.allCases.compactMap { scale in scale.index { values[$0]?.value } }
        return Moment(time: hour.time, values: values, indices: indices)
    }

    /// True when some source gave a pollen count, now or in any hour.
    public var hasPollen: Bool {
        let moments = (current.map { [$0] } ?? []) + hourly
        return moments.contains { moment in Quantity.air.contains { $0.spec.family == .pollen && moment.values[$0] != nil } }
    }

    /// The quantities given now or in any hour, in table order.
    public var quantities: [Quantity] {
        let moments = (current.map { [$0] } ?? []) + hourly
        return Quantity.air.filter { quantity in moments.contains { $0.values[quantity] != nil } }
    }

    /// The worst hour on `scale` within `hours` after `now`, when there is one.
    public func worst(_ scale: AirIndexScale, within hours: Double, after now: Date) -> (index: AirIndexValue, time: Date)? {
        let end = now.addingTimeInterval(hours * 3600)
        var worst: (index: AirIndexValue, time: Date)?
        for moment in hourly where moment.time > now && moment.time <= end {
            guard let index = moment.index(scale) else { continue }
            if worst.map({ index.value > $0.index.value }) ?? true { worst = (index, moment.time) }
        }
        return worst
    }

    /// Local days of the hours, at most `limit`, each with its worst hour on each scale and its highest pollen counts.
    public func days(limit: Int) -> [Day] {
        var days: [Day] = []
        var ranges: [Range<Int>] = []
        for (position, moment) in hourly.enumerated() {
            // Hours end at their time: the hour ending at midnight belongs to the day before.
            let date = LocalDate(moment.time.addingTimeInterval(-1), utcOffsetSeconds: utcOffsetSeconds)
            if days.last?.date != date {
                guard days.count < limit else { break }
                days.append(Day(date: date, worst: [], pollen: [:]))
                ranges.append(position..<position)
            }
            ranges[ranges.count - 1] = ranges[ranges.count - 1].lowerBound..<(position + 1)
            var day = days.removeLast()
            for index in moment.indices {
                if let position = day.worst.firstIndex(where: { $0.index.scale == index.scale }) {
                    if index.value > day.worst[position].index.value { day.worst[position] = (index, moment.time) }
                } else {
                    day.worst.append((index, moment.time))
                }
            }
            for quantity in Quantity.air where quantity.spec.family == .pollen {
                guard let value = moment.values[quantity]?.value else { continue }
                day.pollen[quantity] = max(day.pollen[quantity] ?? 0, value)
            }
            days.append(day)
        }
        let hours = hourly.map { moment in { (quantity: Quantity) in moment.values[quantity]?.value } }
        for index in days.indices { days[index].usAQI = USAirQualityDailyIndex.index(hours, day: ranges[index]) }
        return days
    }
}
