/// The vertical scale of a chart: rows a round step apart, each standing for the values nearest it.
public struct ChartScale: Sendable, Equatable {
    /// The value of the top row.
    public let top: Double
    /// The value between one row and the next.
    public let step: Double
    /// Rows drawn.
    public let rows: Int

    /// The smallest round step (1, 2 or 5 times a power of ten) that holds `low…high` in at most `maxRows` rows; a flat
    /// series (or none) gets a step of 1 around its value; values not finite, or too far apart to subtract, count as none.
    public init(low: Double, high: Double, maxRows: Int) {
        let maxRows = max(2, maxRows)
        var (low, high) = (high - low).isFinite && low <= high ? (low, high) : (0, 0)
        if high - low < 1e-9 { (low, high) = (low - 1, high + 1) }
        var step = Self.roundStep(atLeast: (high - low) / Double(maxRows - 1))
        while true {
            // Values go to the nearest row, so the end rows may sit up to half a step inside the values.
            let bottom = (low / step).rounded() * step
            let rows = ((high / step).rounded() * step - bottom) / step + 1
            if rows <= Double(maxRows) + 0.5 {
                self.rows = max(2, Int(rows.rounded()))
                self.top = bottom + step * Double(self.rows - 1)
                self.step = step
                return
            }
            step = Self.roundStep(atLeast: step * 1.0001)
        }
    }

    /// The row (0 at the top) nearest a value, within the chart.
    public func row(of value: Double) -> Int {
        min(rows - 1, max(0, Int(((top - value) / step).rounded())))
    }

    /// The value a row stands for.
    public func value(ofRow row: Int) -> Double { top - step * Double(row) }

    /// The decimals the labels need: none for steps of 1 or more, else enough for the step.
    public var decimals: Int {
        var decimals = 0
        var scaled = step
        while scaled < 0.999 && decimals < 6 {
            scaled *= 10
            decimals += 1
        }
        return decimals
    }

    /// 1, 2 or 5 times a power of ten, the smallest not below `minimum` (and not below 10⁻⁹).
    public static func roundStep(atLeast minimum: Double) -> Double {
        guard minimum.isFinite, minimum > 0 else { return 1 }
        let minimum = max(minimum, 1e-9)
        var power = 1.0
        while power > minimum { power /= 10 }
        while power * 10 <= minimum { power *= 10 }
        for factor in [1.0, 2, 5, 10] where power * factor >= minimum * (1 - 1e-9) { return power * factor }
        return power * 10
    }
}
