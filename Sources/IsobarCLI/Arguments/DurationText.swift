/// Durations as typed on the command line: `90` or `90s` seconds, `15m` minutes, `1h` hours, `2d` days (decimals allowed).
enum DurationText {
    private static let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]

    /// The number of seconds `text` stands for; nil when it is not a finite, non-negative duration.
    static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces().lowercased()
        guard let last = trimmed.last else { return nil }
        let (number, factor) = units[last].map { (String(trimmed.dropLast()), $0) } ?? (trimmed, 1)
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Double(number), value.isFinite else { return nil }
        let seconds = value * factor
        return seconds.isFinite ? seconds : nil
    }
}
