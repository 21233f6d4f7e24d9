/// A range of lead times scored together: forecasts for the next hours, the next day, the next days and beyond.
public enum LeadBucket: String, Sendable, CaseIterable, Comparable {
    /// 0 to 6 hours ahead.
    case hours0to6 = "0-6h"
    /// 6 to 24 hours ahead.
    case hours6to24 = "6-24h"
    /// 1 to 3 days ahead.
    case days1to3 = "1-3d"
    /// 3 to 7 days ahead.
    case days3to7 = "3-7d"
    /// 7 to 16 days ahead.
    case days7to16 = "7-16d"

    /// The bucket of a lead time in hours (the lower bound in, the upper out); nil before issue or beyond 16 days.
    public init?(leadHours: Double) {
        switch leadHours {
        case 0..<6: self = .hours0to6
        case 6..<24: self = .hours6to24
        case 24..<72: self = .days1to3
        case 72..<168: self = .days3to7
        case 168...384: self = .days7to16
        default: return nil
        }
    }

    public static func < (lhs: LeadBucket, rhs: LeadBucket) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
