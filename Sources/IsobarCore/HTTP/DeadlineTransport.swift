import FoundationEssentials

/// Marks every request with a fetch's deadline (as a system-clock instant), refusing to start one when no time is left.
public struct DeadlineTransport: Transport {
    /// The transport requests go through.
    public let base: any Transport
    /// The instant, on `time`'s clock, no request may outlast.
    public let deadline: Date
    /// The clock `deadline` is on (the engine's, which may be shifted or manual).
    public let time: any TimeSource

    /// A transport sending through `base` before `deadline` on `time`'s clock.
    public init(base: any Transport, deadline: Date, time: any TimeSource) {
        self.base = base
        self.deadline = deadline
        self.time = time
    }

    /// Sends `request` with its `notAfter` no later than the deadline; a `deadline` timeout when none is left.
    public func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        guard deadline.timeIntervalSince(time.now()) > 0 else {
            let asker = request.origin.isEmpty ? request.url.host : request.origin
            throw ProviderError(.timeout, "\(asker): no time left before the deadline", reason: .deadline)
        }
        // Transports measure on the system clock; the deadline is on the engine's, which may be shifted or manual.
        let onSystemClock = Date().addingTimeInterval(deadline.timeIntervalSince(time.now()))
        var marked = request
        marked.notAfter = min(request.notAfter ?? onSystemClock, onSystemClock)
        return try await base.send(marked)
    }
}

extension FetchContext {
    /// A context on `time`'s clock whose requests through `transport` are refused, or shortened, to end by `deadline`.
    public static func bounded(by deadline: Date, transport: any Transport, time: any TimeSource) -> FetchContext {
        FetchContext(transport: DeadlineTransport(base: transport, deadline: deadline, time: time), time: time, deadline: deadline)
    }
}
