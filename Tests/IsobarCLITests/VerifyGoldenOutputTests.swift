import Testing

/// `isobar verify --demo` over the recorded history shipped with the demo: the table, JSON lines, CSV and the chart of
/// the mean absolute error by lead time at 60, 80 and 120 columns and in ASCII (rewritten like every golden with
/// ISOBAR_UPDATE_GOLDEN=1).
@Suite struct VerifyGoldenOutputTests {
    static let cases = [
        GoldenCase(file: "demo-verify-table.txt", arguments: ["verify", "Minsk", "--demo"]),
        GoldenCase(file: "demo-verify-jsonl.jsonl", arguments: ["verify", "Minsk", "--demo", "--format", "jsonl"]),
        GoldenCase(file: "demo-verify-csv.csv", arguments: ["verify", "Minsk", "--demo", "--format", "csv"]),
        GoldenCase(file: "demo-verify-imperial-csv.csv", arguments: ["verify", "--demo", "--units", "imperial", "--format", "csv"]),
        GoldenCase(file: "demo-verify-chart-ascii-80.txt", arguments: ["verify", "Minsk", "--demo", "--chart", "--ascii"], columns: 80),
    ] + [60, 80, 120].map { (columns: Int) in
        GoldenCase(file: "demo-verify-chart-\(columns).txt", arguments: ["verify", "Minsk", "--demo", "--chart"], columns: columns,
                   environment: ["LANG": "C.UTF-8"])
    }

    @Test(.serialized, arguments: cases)
    func verifyOutputMatchesItsGolden(_ golden: GoldenCase) async throws {
        try await GoldenOutputTests().check(golden)
    }
}
