/// How long a waiter for another machine's fetch sleeps before it looks again: 5 ms, doubling up to 100 ms, each wait drawn
/// from the upper half of its step so that waiters that started together do not look together.
///
/// A quick holder is noticed within milliseconds, and a slow one is asked about at most ten times a second per waiter.
public enum LeaseBackoff {
    /// The first step, in seconds.
    public static let firstSeconds = 0.005
    /// The longest step, in seconds.
    public static let longestSeconds = 0.1

    /// The wait before look number `attempt + 1` (from 0), for `random` in 0...1.
    public static func seconds(attempt: Int, random: Double) -> Double {
        let step = min(longestSeconds, firstSeconds * Double(1 << min(max(0, attempt), 16)))
        return step / 2 + step / 2 * min(1, max(0, random))
    }
}
