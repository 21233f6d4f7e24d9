extension JSONValue {
    /// The whole number at `key` if it lies in `range` (absent or null: nil); outside it, an error naming the path.
    public func optionalInt(_ key: String, in range: ClosedRange<Int>) throws(JSONError) -> Int? {
        guard let value = try nonNullMember(key) else { return nil }
        let number = try value.int()
        guard range.contains(number) else {
            throw JSONError(.typeMismatch(expected: "a whole number in \(range.lowerBound)…\(range.upperBound)", found: String(number)),
                            path: value.path)
        }
        return number
    }

    /// The number at `key` if it lies in `range`; absent, null or outside it is an error naming the path.
    public func double(_ key: String, in range: ClosedRange<Double>) throws(JSONError) -> Double {
        let value = try member(key)
        let number = try value.double()
        guard range.contains(number) else {
            throw JSONError(.typeMismatch(expected: "a number in \(JSONOutput.format(range.lowerBound))…\(JSONOutput.format(range.upperBound))",
                                          found: JSONOutput.format(number)), path: value.path)
        }
        return number
    }
}

/// Plausible bounds for values that feed calendar arithmetic.
public enum PlausibleRange {
    /// Seconds east of UTC any place uses (with margin).
    public static let utcOffsetSeconds = -18 * 3600...18 * 3600
    /// Unix seconds from 1970 to the end of year 9999.
    public static let unixSeconds = 0.0...253_402_300_799.0
}
