#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import IsobarCore

/// One station's observation (a METAR report) in fixed units; nil means "not reported".
public struct METARObservation: Sendable, Equatable {
    /// The station's ICAO location indicator, e.g. `UMMS`.
    public var station: String
    /// When it was observed (UTC).
    public var time: Date
    /// Air temperature, °C.
    public var temperatureC: Double?
    /// Dew point, °C.
    public var dewPointC: Double?
    /// Direction the wind blows from, degrees; nil when calm or variable.
    public var windDirectionDeg: Double?
    /// True when the report gives the direction as variable (`VRB`).
    public var windVariable = false
    /// Mean wind speed, m/s (0 when calm).
    public var windSpeedMS: Double?
    /// Gusts, m/s.
    public var windGustMS: Double?
    /// Prevailing visibility, metres (10 km or more is reported as 10,000).
    public var visibilityM: Double?
    /// The altimeter setting (QNH), hPa: pressure reduced to mean sea level by the standard atmosphere.
    public var pressureHPa: Double?
    /// Cloud cover from the most covering layer, 0–100 % (the middle of its oktas).
    public var cloudCoverPercent: Double?
    /// Present weather, or the sky when nothing falls; the most severe of the groups.
    public var condition: Condition?
    /// The report as sent, for provenance.
    public var raw: String

    /// An observation with nothing but its station, time and text.
    public init(station: String, time: Date, raw: String) {
        self.station = station
        self.time = time
        self.raw = raw
    }

    /// Relative humidity from temperature and dew point (Magnus formula, Alduchov and Eskridge's coefficients), 0–100 %.
    public var humidityPercent: Double? {
        guard let temperatureC, let dewPointC else { return nil }
        func saturation(_ celsius: Double) -> Double { exp(17.625 * celsius / (243.04 + celsius)) }
        return min(100, max(0, 100 * saturation(dewPointC) / saturation(temperatureC)))
    }

    /// The observation as current conditions in the canonical model.
    public var sample: WeatherSample {
        var sample = WeatherSample(time: time, periodHours: 1)
        sample.temperatureC = temperatureC
        sample.humidityPercent = humidityPercent
        sample.pressureHPa = pressureHPa
        sample.windSpeedMS = windSpeedMS
        sample.windGustMS = windGustMS
        sample.windDirectionDeg = windDirectionDeg
        sample.cloudCoverPercent = cloudCoverPercent
        sample.visibilityM = visibilityM
        sample.condition = condition
        return sample
    }
}
