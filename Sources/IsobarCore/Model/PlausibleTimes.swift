import FoundationEssentials

/// How far from the moment of an answer its times may lie; a time outside is a provider's mistake (or a wrong clock).
public enum PlausibleTimes {
    /// Current conditions: observed at most 2 days before the answer, at most 6 hours after it.
    public static let current: ClosedRange<Double> = -2 * 86_400 ... 6 * 3_600
    /// Forecast steps and days: from 7 days before the answer (past hours and the start of today) to 46 days after it.
    public static let forecast: ClosedRange<Double> = -7 * 86_400 ... 46 * 86_400
    /// Sunrise and sunset: within a day and a half of their own day's midnight.
    public static let sunFromDay: ClosedRange<Double> = -36 * 3_600 ... 60 * 3_600
}

extension WeatherReport {
    /// The moment this answer's times are judged against: when it was recorded for a replay, else `now`.
    public func timeReference(now: Date) -> Date {
        if case .replay(let recordedAt) = source { return recordedAt }
        return now
    }

    /// Removes the current conditions, steps and days whose times lie outside `PlausibleTimes` around `reference`,
    /// and sunrises and sunsets far from their day, each removal added to `warnings`.
    mutating func dropImplausibleTimes(reference: Date) {
        let check = TimeCheck(reference: reference)
        if let time = current?.time, let warning = check(time, PlausibleTimes.current, at: "current.time") {
            warnings.append(warning)
            current = nil
        }
        let steps = hourly.indices.filter { !PlausibleTimes.forecast.contains(hourly[$0].time.timeIntervalSince(reference)) }
        if let first = steps.first, let warning = check(hourly[first].time, PlausibleTimes.forecast, at: "hourly[\(first)].time",
                                                       count: steps.count) {
            warnings.append(warning)
            let dropped = Set(steps)
            hourly = hourly.indices.filter { !dropped.contains($0) }.map { hourly[$0] }
        }
        let days = daily.indices.filter { !PlausibleTimes.forecast.contains(daily[$0].midnightUTC.timeIntervalSince(reference)) }
        if let first = days.first, let warning = check(daily[first].midnightUTC, PlausibleTimes.forecast, at: "daily[\(first)].date",
                                                      count: days.count) {
            warnings.append(warning)
            let dropped = Set(days)
            daily = daily.indices.filter { !dropped.contains($0) }.map { daily[$0] }
        }
        for index in daily.indices {
            let midnight = daily[index].midnightUTC
            let near = TimeCheck(reference: midnight)
            if let sunrise = daily[index].sunrise, let warning = near(sunrise, PlausibleTimes.sunFromDay, at: "daily[\(index)].sunrise") {
                warnings.append(warning)
                daily[index].sunrise = nil
            }
            if let sunset = daily[index].sunset, let warning = near(sunset, PlausibleTimes.sunFromDay, at: "daily[\(index)].sunset") {
                warnings.append(warning)
                daily[index].sunset = nil
            }
        }
    }
}

extension DailyPoint {
    /// The day's start as if it were UTC midnight (good to a day, which is all the checks need).
    var midnightUTC: Date { Date(timeIntervalSince1970: Double(date.daysSinceEpoch) * 86_400) }
}

/// Says why a time lies outside its window around a reference, or nil when it does not.
private struct TimeCheck {
    let reference: Date

    func callAsFunction(_ time: Date, _ window: ClosedRange<Double>, at path: String, count: Int = 1) -> ValueWarning? {
        let offset = time.timeIntervalSince(reference)
        guard !window.contains(offset) else { return nil }
        let field = String(path.split(separator: ".").last ?? Substring(path))
        let span = "\(Self.spoken(window.lowerBound))…+\(Self.spoken(window.upperBound)) of the answer"
        let reason = count == 1 ? "outside \(span)" : "outside \(span) (\(count) of them left out)"
        return ValueWarning(field: field, path: path, value: offset.isFinite ? CivilTime.iso(time, utcOffsetSeconds: 0) : "invalid",
                            reason: reason)
    }

    private static func spoken(_ seconds: Double) -> String {
        abs(seconds) >= 86_400 ? "\(Int(seconds / 86_400)) d" : "\(Int(seconds / 3_600)) h"
    }
}
