import FoundationEssentials

/// One request the engine answers: a place and the kinds of data wanted, numbered in the order taken.
public struct EngineRequest: Sendable, Equatable {
    /// Its number within the run.
    public var id: RequestID
    /// The place and kinds.
    public var weather: WeatherRequest

    /// Creates a request.
    public init(id: RequestID, weather: WeatherRequest) {
        self.id = id
        self.weather = weather
    }

    /// The place asked about.
    public var place: Place { weather.place }
}

/// A provider's answer with the days it contributes, computed once in the place's local calendar.
public struct ProviderResult: Sendable, Equatable {
    /// The answer.
    public var report: WeatherReport
    /// Its own days, or days computed from its steps (complete local days only); empty when days were not asked for.
    public var days: [DailyPoint]
    /// What a reader should know about it (a stale observation, a forecast that ended).
    public var notes: [ResultNote]

    /// Creates a result.
    public init(report: WeatherReport, days: [DailyPoint], notes: [ResultNote] = []) {
        self.report = report
        self.days = days
        self.notes = notes
    }
}

/// Something that happened while answering a request, in the order it happened, tagged with the request; `Merged` is
/// what the engine's consensus strategy makes of a request's answers.
public enum EngineEvent<Merged: Sendable>: Sendable {
    /// A provider answered.
    case result(EngineRequest, ProviderResult)
    /// A provider failed.
    case failure(EngineRequest, providerID: String, error: ProviderError)
    /// Every provider has finished this request; the merge of those that answered.
    case consensus(EngineRequest, Merged)

    /// The request the event answers.
    public var request: EngineRequest {
        switch self {
        case .result(let request, _), .failure(let request, _, _), .consensus(let request, _): request
        }
    }

    /// The provider the event is about; nil for the consensus.
    public var providerID: String? {
        switch self {
        case .result(_, let result): result.report.providerID
        case .failure(_, let providerID, _): providerID
        case .consensus: nil
        }
    }

    /// How the provider's turn ended; nil for the consensus.
    public var outcome: ProviderOutcome? {
        switch self {
        case .result(_, let result): ProviderOutcome(result.report.freshness)
        case .failure(_, _, let error): ProviderOutcome(error)
        case .consensus: nil
        }
    }
}
