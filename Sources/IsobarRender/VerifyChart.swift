import IsobarConsensus
import IsobarCore

/// `isobar verify --chart`: each provider's mean absolute error by lead bucket as its own line (one chart per basis),
/// fitted to the width, drawn with the characters and colours of the other charts.
public struct VerifyChart: Sendable {
    /// The scores.
    public let scores: VerifyScores
    /// Units of the errors.
    public let units: UnitSystem
    /// Cells each line may take.
    public let width: Int
    /// The characters.
    public let glyphs: ChartGlyphs
    /// The colours.
    public let palette: ChartPalette

    /// Creates a `VerifyChart` from its parts.
    public init(scores: VerifyScores, units: UnitSystem, width: Int, glyphs: ChartGlyphs, palette: ChartPalette) {
        self.scores = scores
        self.units = units
        self.width = width
        self.glyphs = glyphs
        self.palette = palette
    }

    /// The charts as text.
    public func render() -> String {
        let bases = scores.bases.filter { basis in scores.errors.keys.contains { $0.basis == basis } }
        guard !bases.isEmpty else { return "No mean absolute error to chart.\n" }
        return bases.map(chart).joined(separator: "\n")
    }

    /// The chart of one basis.
    private func chart(_ basis: ObservationBasis) -> String {
        let errors = scores.errors.filter { $0.key.basis == basis }
        let providers = Set(errors.keys.map(\.provider)).sorted()
        let buckets = LeadBucket.allCases.filter { bucket in errors.keys.contains { $0.bucket == bucket } }
        let dimension = scores.quantity.dimension
        let lines = providers.map { provider in
            buckets.map { bucket in
                errors[ScoreKey(provider: provider, field: scores.quantity.rawValue, bucket: bucket, basis: basis)]?.meanAbsoluteError
                    .map { units.convertDifference($0, dimension) }
            }
        }
        let rows = width >= 80 ? 10 : 8
        var labelWidth = ChartSetting.minimumLabelWidth
        var framed: [String] = []
        var columns = ChartColumns(hours: buckets.count, width: width - labelWidth - 2)
        while true {
            columns = ChartColumns(hours: buckets.count, width: width - labelWidth - 2)
            let (canvas, scale) = ChartPlot.lines(lines, columns: columns, maxRows: rows, glyphs: glyphs)
            let labels = ChartSetting.labels(scale)
            let widest = labels.map { $0?.count ?? 0 }.max() ?? 0
            if widest <= labelWidth {
                framed = ChartPlot.framed(canvas, labels: labels, labelWidth: labelWidth, glyphs: glyphs, palette: palette)
                break
            }
            labelWidth = widest
        }
        let against = basis.isProxy ? "against \(basis.id) (a proxy)" : "against \(basis.id)"
        var text = TextWrap.fit("Mean absolute error of \(scores.quantity.rawValue) (\(units.symbol(for: scores.quantity))) by lead time, \(against)",
                                width: width) + "\n"
        let legend = providers.enumerated().map { index, provider in palette.line(index, String(glyphs.mark(index))) + " " + provider }
        text += TextWrap.fit((legend + ["\(glyphs.overlap) several in one place"]).joined(separator: "  "), width: width) + "\n"
        text += framed.joined(separator: "\n") + "\n"
        var axis = Array(repeating: Character(" "), count: columns.count)
        for (index, bucket) in buckets.enumerated() {
            let start = columns.column(ofHour: index)
            for (offset, character) in bucket.rawValue.enumerated() where start + offset < axis.count { axis[start + offset] = character }
        }
        let indent = String(repeating: " ", count: labelWidth + 1)
        text += indent + String(glyphs.corner) + String(repeating: glyphs.baseline, count: columns.count) + "\n"
        text += (indent + " " + String(axis)).trimmingTrailingSpaces() + "\n"
        return text
    }
}
