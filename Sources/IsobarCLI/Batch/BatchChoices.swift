import IsobarCore
import IsobarRender

/// What `isobar batch --kind` asks each place for.
public enum BatchKind: String, Sendable, CaseIterable {
    /// Current conditions (the lines of `compare`).
    case current
    /// Hour by hour for `--days` days, with the days (the lines of `forecast --hourly`).
    case hourly
    /// Days, `--days` of them (the lines of `forecast`).
    case daily

    /// The view whose lines a place gets.
    func view(days: Int) -> View {
        switch self {
        case .current: .compare
        case .hourly: .forecast(days: days, hourly: true)
        case .daily: .forecast(days: days, hourly: false)
        }
    }
}

/// The order `isobar batch --order` writes places in.
public enum BatchOrder: String, Sendable, CaseIterable {
    /// As each place completes (the default): nothing waits for a slow place.
    case completion
    /// In input order, through a bounded reorder buffer.
    case input
}
