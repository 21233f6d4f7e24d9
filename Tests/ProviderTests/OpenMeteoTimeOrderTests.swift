import FoundationEssentials
import IsobarCore
import OpenMeteo
import Testing

/// An Open-Meteo body (offset 0) with the given hourly and daily times, a temperature for each.
private func body(hours: [String], days: [String] = ["2026-11-28"]) -> String {
    let quoted = { (items: [String]) in items.map { "\"\($0)\"" }.joined(separator: ",") }
    let temperatures = { (count: Int) in (0..<count).map { "\($0)" }.joined(separator: ",") }
    return #"{"latitude":53.875,"longitude":27.5625,"utc_offset_seconds":0,"timezone":"GMT","#
        + #""hourly_units":{"time":"iso8601","temperature_2m":"°C"},"#
        + #""hourly":{"time":[\#(quoted(hours))],"temperature_2m":[\#(temperatures(hours.count))]},"#
        + #""daily_units":{"time":"iso8601","temperature_2m_max":"°C"},"#
        + #""daily":{"time":[\#(quoted(days))],"temperature_2m_max":[\#(temperatures(days.count))]}}"#
}

private func decodingError(_ text: String) -> ProviderError? {
    do {
        _ = try OpenMeteoDecoder().decode(response(200, text), now: Fixtures.recordedAt)
        return nil
    } catch {
        return error
    }
}

/// Steps out of time order cannot be matched with the other providers' hours by position or by sorting without a guess
/// at which values belong where; like a plug-in's report, such an answer is refused, naming the first step out of place.
@Suite("Open-Meteo decoder: time order")
struct OpenMeteoTimeOrderTests {
    @Test("hours in reverse order are refused, naming the first out of place", arguments: [
        (["2026-11-28T02:00", "2026-11-28T01:00", "2026-11-28T00:00"], "$.hourly.time[1]"),
        (["2026-11-28T00:00", "2026-11-28T01:00", "2026-11-28T01:00"], "$.hourly.time[2]"),
        (["2026-11-28T00:00", "2026-11-28T02:00", "2026-11-28T01:00"], "$.hourly.time[2]"),
    ])
    func hoursOutOfOrder(hours: [String], path: String) throws {
        let error = try #require(decodingError(body(hours: hours)))
        #expect(error.code == .badResponse(path: path))
        #expect(error.message.contains("\(path): steps must be in time order, each once"), "\(error.message)")
    }

    @Test("days out of order are refused the same way")
    func daysOutOfOrder() throws {
        let error = try #require(decodingError(body(hours: ["2026-11-28T00:00"], days: ["2026-11-29", "2026-11-28"])))
        #expect(error.code == .badResponse(path: "$.daily.time[1]"))
        #expect(error.message.contains("$.daily.time[1]: days must be in order, each once"), "\(error.message)")
    }

    @Test("hours and days in order are read")
    func inOrder() throws {
        let forecast = try OpenMeteoDecoder().decode(response(200, body(hours: ["2026-11-28T00:00", "2026-11-28T01:00"],
                                                                        days: ["2026-11-28", "2026-11-29"])),
                                                     now: Fixtures.recordedAt)
        #expect(forecast.hourly.map(\.temperatureC) == [0, 1])
        #expect(forecast.daily.map(\.temperatureMaxC) == [0, 1])
    }
}
