import IsobarCore

/// The value fields a program's report may hold, derived from the quantity tables (`Quantity.spec`, `DailyQuantity.spec`):
/// each quantity is one field, named with its internal unit (`temperature_c`, `uv_index`), checked against its range.
public enum ExecFields {
    /// The quantities of a sample (`current` and each `hourly` step): every hourly quantity; precipitation is sent as
    /// `precipitation_mm`, an amount over the step's `period_hours`.
    public static let sampleQuantities: [Quantity] = Quantity.allCases
    /// The quantities of a day: every daily quantity but the instants (`sunrise`, `sunset`, sent as ISO-8601 times).
    public static let dayQuantities: [DailyQuantity] = DailyQuantity.allCases.filter { $0.dimension != .instant }

    /// The fields of a sample that are not quantities.
    static let sampleExtras = ["time", "period_hours", "condition", "is_day"]
    /// The fields of a day that are not quantities.
    static let dayExtras = ["date", "condition", "sunrise", "sunset"]

    /// The unit a field is written in: the quantity's internal unit (an amount in mm for precipitation over a step).
    public static func unit(_ quantity: Quantity) -> String {
        quantity == .precipitationRate ? "mm" : quantity.spec.unitSymbol ?? quantity.dimension.internalSymbol
    }

    /// The unit a day's field is written in: the quantity's internal unit.
    public static func unit(_ quantity: DailyQuantity) -> String { quantity.spec.unitSymbol ?? quantity.dimension.internalSymbol }

    /// The table of fields as `docs/plugin-protocol.md` lists it: one Markdown row per field (field, where, unit, range).
    public static var documentationRows: [String] {
        func range(_ bounds: ClosedRange<Double>) -> String { "\(JSONOutput.format(bounds.lowerBound))…\(JSONOutput.format(bounds.upperBound))" }
        let samples = sampleQuantities.map { quantity in
            let bounds = quantity == .precipitationRate ? "\(range(quantity.spec.range)) per hour of `period_hours`" : range(quantity.spec.range)
            return "| `\(quantity.fieldName)` | sample | \(unit(quantity)) | \(bounds) |"
        }
        return samples + dayQuantities.map { "| `\($0.fieldName)` | day | \(unit($0)) | \(range($0.spec.range)) |" }
    }
}
