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
    /// Air quality and pollen from the air sources (the `air` line of `isobar air`).
    case air

    /// The view whose lines a place gets (air: none of the weather's; its `air` line is its own).
    func view(days: Int) -> View {
        switch self {
        case .current, .air: .compare
        case .hourly: .forecast(days: days, hourly: true)
        case .daily: .forecast(days: days, hourly: false)
        }
    }

    /// What each place's sources are asked for.
    func kinds(days: Int) -> Set<DataKind> {
        self == .air ? AirCommand.kinds : view(days: days).kinds
    }
}

/// The order `isobar batch --order` writes places in.
public enum BatchOrder: String, Sendable, CaseIterable {
    /// As each place completes (the default): nothing waits for a slow place.
    case completion
    /// In input order, through a bounded reorder buffer.
    case input
}
