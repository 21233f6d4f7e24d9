/// How the hours of a chart spread over the columns it may take: several columns an hour when there is room (values
/// between hours interpolated), else several hours a column (values averaged, ranges and bars taking the extremes).
public struct ChartColumns: Sendable, Equatable {
    /// Hours charted.
    public let hours: Int
    /// Columns each hour takes (1 when hours share columns).
    public let columnsPerHour: Int
    /// Hours each column stands for (1 when hours have columns of their own).
    public let hoursPerColumn: Int

    /// The layout of `hours` hours in at most `width` columns (at least 1 of each).
    public init(hours: Int, width: Int) {
        self.hours = max(1, hours)
        let width = max(1, width)
        if width >= self.hours {
            columnsPerHour = width / self.hours
            hoursPerColumn = 1
        } else {
            columnsPerHour = 1
            hoursPerColumn = (self.hours + width - 1) / width
        }
    }

    /// Columns drawn.
    public var count: Int { hoursPerColumn == 1 ? hours * columnsPerHour : (hours + hoursPerColumn - 1) / hoursPerColumn }

    /// The hours a column stands for.
    public func hours(of column: Int) -> Range<Int> {
        let first = column / columnsPerHour * hoursPerColumn
        return first..<min(hours, first + hoursPerColumn)
    }

    /// The first column of an hour.
    public func column(ofHour hour: Int) -> Int { hour / hoursPerColumn * columnsPerHour }

    /// A line's value in a column: the hour's own at its first column, interpolated towards the next hour after it
    /// (held when the next is missing); the mean of the hours a column shares; nil where the hour has none.
    public func value(_ values: [Double?], at column: Int) -> Double? {
        let range = hours(of: column)
        guard !range.isEmpty else { return nil }
        if hoursPerColumn > 1 {
            let given = range.compactMap { $0 < values.count ? values[$0] : nil }
            return given.isEmpty ? nil : given.reduce(0, +) / Double(given.count)
        }
        let hour = range.lowerBound
        guard hour < values.count, let value = values[hour] else { return nil }
        let step = column % columnsPerHour
        guard step > 0, hour + 1 < values.count, let next = values[hour + 1] else { return value }
        return value + (next - value) * Double(step) / Double(columnsPerHour)
    }

    /// A range's extent in a column: the lowest low and the highest high of its hours, nil where none has one.
    public func range(_ ranges: [ClosedRange<Double>?], at column: Int) -> ClosedRange<Double>? {
        let given = hours(of: column).compactMap { $0 < ranges.count ? ranges[$0] : nil }
        guard let low = given.map(\.lowerBound).min(), let high = given.map(\.upperBound).max() else { return nil }
        return low...high
    }

    /// The highest value of a column's hours (a bar), nil where none has one.
    public func highest(_ values: [Double?], at column: Int) -> Double? {
        hours(of: column).compactMap { $0 < values.count ? values[$0] : nil }.max()
    }
}
