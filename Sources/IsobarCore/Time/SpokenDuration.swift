/// Seconds as shown to people in messages: one decimal below 10 s, whole seconds above (`0.3`, `2`, `10`, never `9.990898489952087`).
public enum SpokenDuration {
    /// The number of seconds, rounded for a message, without its unit.
    public static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return value > 0 ? "∞" : "?" }
        let rounded = abs(value) < 9.95 ? (value * 10).rounded() / 10 : value.rounded()
        return JSONOutput.format(rounded)
    }
}
