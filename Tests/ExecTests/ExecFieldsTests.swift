import Exec
import Foundation
import IsobarCore
import Testing

/// The report fields a program may send come from the quantity tables, and the protocol's page lists exactly them.
@Suite("Exec: report fields from the quantity table")
struct ExecFieldsTests {
    let place = Place(name: "Minsk", coordinate: Coordinate(latitude: 53.9, longitude: 27.5667)!)
    let now = Date(timeIntervalSince1970: 1_795_856_400)

    /// Reads `report` (the members of the `report` object) as a program's answer.
    func read(_ report: String) throws(ProviderError) -> WeatherReport {
        let answer: JSONValue
        do {
            answer = try JSONDocument(parsing: #"{"report":{"units":"si",\#(report)}}"#).rootValue
        } catch {
            throw ProviderError(.badResponse(path: "$"), "test JSON: \(error)")
        }
        return try ExecReportReader(providerID: "p").read(answer, request: WeatherRequest(place: place), now: now)
    }

    @Test("every hourly quantity of the table is a sample field, read into its quantity")
    func everySampleQuantity() throws {
        let members = Quantity.allCases.map { quantity in "\"\(quantity.fieldName)\":\(JSONOutput.format(quantity.spec.range.lowerBound + 1))" }
        let report = try read(#""current":{"time":"2026-11-28T09:00:00Z",\#(members.joined(separator: ","))}"#)
        let current = try #require(report.current)
        for quantity in Quantity.allCases { #expect(current[quantity] == quantity.spec.range.lowerBound + 1, "\(quantity.fieldName)") }
        #expect(Set(ExecFields.sampleQuantities) == Set(Quantity.allCases))
    }

    @Test("every daily quantity but sunrise and sunset is a day field, read into its quantity")
    func everyDayQuantity() throws {
        let members = ExecFields.dayQuantities.map { quantity in "\"\(quantity.fieldName)\":\(JSONOutput.format(quantity.spec.range.lowerBound + 1))" }
        let report = try read(#""daily":[{"date":"2026-11-28",\#(members.joined(separator: ","))}]"#)
        let day = try #require(report.daily.first)
        for quantity in ExecFields.dayQuantities { #expect(day[quantity] == quantity.spec.range.lowerBound + 1, "\(quantity.fieldName)") }
        #expect(Set(ExecFields.dayQuantities) == Set(DailyQuantity.allCases.filter { $0 != .sunrise && $0 != .sunset }))
    }

    @Test("dew point and UV index outside their declared ranges are refused at their path", arguments: [
        (#""dew_point_c":45"#, "$.report.current.dew_point_c"), (#""uv_index":-1"#, "$.report.current.uv_index"),
        (#""uv_index":"high""#, "$.report.current.uv_index"), (#""uv_index_c":1"#, "$.report.current.uv_index_c"),
    ])
    func refused(member: String, path: String) {
        do {
            _ = try read(#""current":{"time":"2026-11-28T09:00:00Z",\#(member)}"#)
            Issue.record("accepted \(member)")
        } catch {
            #expect(error.code == .badResponse(path: path), "\(error.message)")
        }
    }

    @Test("docs/plugin-protocol.md lists exactly the fields of the table, with their units and ranges")
    func documentation() throws {
        let page = try String(contentsOfFile: packageRoot + "/docs/plugin-protocol.md", encoding: .utf8)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("<!-- report fields:") })
        let end = try #require(lines[start...].firstIndex { $0.hasPrefix("<!-- end of report fields") })
        let rows = lines[(start + 1)..<end].filter { $0.hasPrefix("| `") }
        #expect(rows == ExecFields.documentationRows)
        #expect(rows.contains("| `dew_point_c` | sample | °C | -100…40 |"))
        #expect(rows.contains("| `uv_index` | sample | UVI | 0…25 |"))
    }

    @Test("host messages carry the minor version that accepts these fields")
    func minorVersion() throws {
        let describe = try JSONDocument(parsing: ExecMessages.describe().serialized()).rootValue
        #expect(try describe.int("protocol") == 1 && describe.int("protocol_minor") == 1)
    }
}
