import FoundationEssentials
import IsobarCore

/// Locationforecast 2.0 `compact` bodies shaped as MET Norway sends them.
enum METNorwayBody {
    /// One step: instant details, and a period of `hours` (1 or 6) with a symbol and an amount, or none for the last step.
    static func step(_ time: String, temperature: Double, hours: Int?, symbol: String = "cloudy", precipitation: Double = 0) -> String {
        let instant = #""instant":{"details":{"air_pressure_at_sea_level":1012.3,"air_temperature":\#(temperature),"#
            + #""cloud_area_fraction":88.5,"relative_humidity":91.2,"wind_from_direction":225.4,"wind_speed":3.4}}"#
        guard let hours else { return #"{"time":"\#(time)","data":{\#(instant)}}"# }
        let period = #""next_\#(hours)_hours":{"summary":{"symbol_code":"\#(symbol)"},"details":{"precipitation_amount":\#(precipitation)}}"#
        return #"{"time":"\#(time)","data":{\#(instant),\#(period)}}"#
    }

    /// A body: two hourly steps, one 6-hourly step, and a last step with only instant values.
    static let minsk = body([
        step("2026-11-28T09:00:00Z", temperature: -1.5, hours: 1, symbol: "lightsnow", precipitation: 0.3),
        step("2026-11-28T10:00:00Z", temperature: -1.1, hours: 1, symbol: "cloudy"),
        step("2026-11-28T11:00:00Z", temperature: -0.6, hours: 6, symbol: "lightssnowshowersandthunder_day", precipitation: 2.4),
        step("2026-11-28T17:00:00Z", temperature: -2.0, hours: nil),
    ])

    /// The GeoJSON envelope around `steps`.
    static func body(_ steps: [String], units: String = unitsText) -> String {
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[27.5667,53.9,222]},"properties":{"#
            + #""meta":{"updated_at":"2026-11-28T08:41:12Z","units":\#(units)},"timeseries":[\#(steps.joined(separator: ","))]}}"#
    }

    /// The units the compact product sends.
    static let unitsText = #"{"air_pressure_at_sea_level":"hPa","air_temperature":"celsius","cloud_area_fraction":"%","#
        + #""precipitation_amount":"mm","relative_humidity":"%","wind_from_direction":"degrees","wind_speed":"m/s"}"#
}
