import FoundationEssentials
import IsobarCore
import METAR
import Testing

/// 2026-11-28 09:00 UTC, the moment the bundled recordings were made.
let recordedAt = Date(timeIntervalSince1970: 1_795_856_400)

@Suite struct METARTextTests {
    func parse(_ text: String, reference: Date = recordedAt) throws -> METARObservation {
        try #require(METARText.parse(text, reference: reference), "\(text)")
    }

    @Test func aEuropeanReportInMetresPerSecondWithSnowAndNegativeTemperatures() throws {
        let report = try parse("UMMS 280900Z 24006MPS 9999 -SN BKN012 M05/M08 Q1012 R31/290050 NOSIG")
        #expect(report.station == "UMMS")
        #expect(report.time == recordedAt)
        #expect(report.windDirectionDeg == 240 && report.windSpeedMS == 6 && report.windGustMS == nil && !report.windVariable)
        #expect(report.visibilityM == 10_000)
        #expect(report.temperatureC == -5 && report.dewPointC == -8)
        #expect(report.pressureHPa == 1012)
        #expect(report.condition == .snow)
        #expect(report.cloudCoverPercent == 75)
        let humidity = try #require(report.humidityPercent)
        #expect(abs(humidity - 79.4) < 0.5, "\(humidity)")
    }

    @Test func anAmericanReportWithGustsMilesAndInchesOfMercury() throws {
        let report = try parse("METAR KJFK 280851Z 31012G20KT 10SM FEW250 M02/M14 A3042 RMK AO2 SLP310 T10221144")
        #expect(report.station == "KJFK")
        #expect(report.time == recordedAt.addingTimeInterval(-540))
        #expect(abs(try #require(report.windSpeedMS) - 6.173) < 0.001)
        #expect(abs(try #require(report.windGustMS) - 10.289) < 0.001)
        #expect(abs(try #require(report.visibilityM) - 16_093.44) < 0.01)
        #expect(abs(try #require(report.pressureHPa) - 1030.1) < 0.05)
        #expect(report.temperatureC == -2 && report.dewPointC == -14)
        #expect(report.condition == .mainlyClear)
    }

    @Test func variableAndCalmWindsHaveNoDirection() throws {
        let variable = try parse("EGLL 280850Z VRB03KT CAVOK 15/13 Q1006")
        #expect(variable.windVariable && variable.windDirectionDeg == nil && variable.windSpeedMS.map { abs($0 - 1.543) < 0.001 } == true)
        #expect(variable.visibilityM == 10_000 && variable.condition == .clear && variable.cloudCoverPercent == 0)
        let calm = try parse("KHAF 280815Z AUTO 00000KT 1 3/4SM BR OVC003 10/09 A3028 RMK AO2")
        #expect(calm.windSpeedMS == 0 && calm.windDirectionDeg == nil && !calm.windVariable)
        #expect(abs(try #require(calm.visibilityM) - 1.75 * 1_609.344) < 0.01)
        #expect(calm.condition == .fog)
    }

    @Test func missingGroupsReadAsNothing() throws {
        let report = try parse("UMLI 280900Z AUTO /////KT //// ///// Q//// NCD")
        #expect(report.windSpeedMS == nil && report.windDirectionDeg == nil)
        #expect(report.visibilityM == nil && report.temperatureC == nil && report.dewPointC == nil && report.pressureHPa == nil)
        #expect(report.condition == .clear)
        let noDewPoint = try parse("UUEE 280900Z 18004MPS 8000 OVC006 02/ Q1001")
        #expect(noDewPoint.temperatureC == 2 && noDewPoint.dewPointC == nil && noDewPoint.humidityPercent == nil)
        #expect(noDewPoint.condition == .cloudy)
    }

    @Test func theMostSevereWeatherWinsAndWeatherNearbyIsNotWeatherHere() throws {
        #expect(try parse("KMIA 281853Z 09015G28KT 2SM +TSRAGR BKN010CB 24/22 A2990").condition == .thunderstormWithHail)
        #expect(try parse("CYUL 280900Z 05012KT 3SM -FZRA BR OVC008 M01/M02 A2990").condition == .freezingRain)
        #expect(try parse("ENGM 280850Z 36005KT 9999 VCSH FEW030 05/01 Q1020").condition == .mainlyClear)
        #expect(try parse("LFPG 280900Z 20008KT 4000 RASN BKN008 01/00 Q0998").condition == .rainAndSnow)
        #expect(try parse("EDDF 280850Z 27012KT 9999 SHSN SCT020 00/M03 Q1011").condition == .snowShowers)
        #expect(try parse("KLAX 280853Z 25005KT 1/4SM FG VV001 14/14 A2998").condition == .fog)
    }

    @Test func theDayIsTakenFromTheMonthOfTheReference() throws {
        // On the 1st, a report stamped the 30th is from the month before.
        let firstOfDecember = Date(timeIntervalSince1970: 1_796_083_200)  // 2026-12-01 00:00 UTC
        let report = try parse("UMMS 302330Z 24006MPS 9999 M05/M08 Q1012", reference: firstOfDecember)
        #expect(report.time == firstOfDecember.addingTimeInterval(-1_800))
        // A stamp up to an hour ahead of the reference (a clock a little behind) is this month's.
        #expect(try parse("UMMS 280930Z 24006MPS M05/M08 Q1012").time == recordedAt.addingTimeInterval(1_800))
    }

    @Test func textThatIsNotAReportIsRefused() {
        for text in ["", "HELLO", "UMMS", "UMMS 281260Z 24006MPS", "UMMS 320900Z", "UMMS 280900", "TOOLONG 280900Z"] {
            #expect(METARText.parse(text, reference: recordedAt) == nil, "\(text)")
        }
    }

    @Test func unknownGroupsAreSkippedAndNothingAfterRemarksIsRead() throws {
        let report = try parse("UMMS 280900Z 24006MPS WIBBLE 9999 M05/M08 Q1012 RMK QFE745/0993 +TSRA")
        #expect(report.condition == nil && report.temperatureC == -5 && report.pressureHPa == 1012)
    }
}
