import CCurl
import FoundationEssentials
import IsobarCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// HTTP over libcurl's multi interface, driven by one I/O thread: connections are reused, transfers run concurrently,
/// and cancelling a task removes its transfer at once.
///
/// libcurl is loaded with `dlopen` on the first `send`, which also creates the multi handle and starts the I/O thread, so a
/// transport that is never used costs nothing. Without libcurl every request fails with `ProviderError(.unavailable)`.
///
/// Plain `http` is allowed only to loopback hosts; TLS verification is always on; redirects are followed
/// only to the same host over https, at most 3 (`Redirects`);
/// proxy environment variables are honoured by libcurl.
///
/// At most `maxConnectionsPerHost` connections are open to one host at once; further transfers to it queue inside
/// libcurl until one is free, and the time they spend queued counts against their total timeout and deadline. Over
/// https, HTTP/2 is used when the server offers it (ALPN), and then a new transfer waits to share the host's connection
/// instead of opening another; plain http is always HTTP/1.1.
public final class CurlTransport: Transport {
    /// Shared between callers and the I/O thread.
    struct Inbox {
        var additions: [Transfer] = []
        var cancellations: Set<Int> = []
        var nextID = 0
        var stopping = false
    }

    /// The multi handle and the inbox; lives until the I/O thread ends (and while a `LoopExecutor` holds it).
    final class Core: @unchecked Sendable {
        // Safety: `multi` and `loop` are used by the I/O thread only, except `isobar_curl_loop_wake`, safe from any thread.
        let multi: UnsafeMutableRawPointer
        let loop: OpaquePointer
        let inbox = Mutex(Inbox())
        /// The `User-Agent` every easy handle sends.
        let userAgent: String
        /// How many easy handles have been created (the rest of the transfers reused one).
        let handlesMade = Atomic<Int>(0)
        /// Jobs of tasks that prefer the I/O thread (see `LoopExecutor`), run there between polls.
        let jobs: LoopJobs
        /// The I/O thread, once it runs (0 before).
        let loopThread = Atomic<UInt>(0)
        /// Wake-ups sent to the I/O thread so far (tests).
        let wakes = Atomic<Int>(0)

        init(multi: UnsafeMutableRawPointer, loop: OpaquePointer, userAgent: String, heldWakeups: HeldWakeups?) {
            self.multi = multi
            self.loop = loop
            self.userAgent = userAgent
            jobs = LoopJobs(heldWakeups: heldWakeups)
        }

        deinit {
            // The multi handle goes first: cleaning it up may still tell the loop of sockets closing.
            _ = isobar_curl_multi_cleanup(multi)
            isobar_curl_loop_destroy(loop)
        }

        func wake() {
            wakes.add(1, ordering: .relaxed)
            _ = isobar_curl_loop_wake(loop)
        }

        /// True on the I/O thread, which needs no wake-up: it looks at its inbox and jobs before it waits.
        var isLoopThread: Bool { pthread_self() == loopThread.load(ordering: .relaxed) }
    }

    /// Nothing runs before the first request; the first `send` moves to `running` or `unavailable`.
    private enum Phase {
        case idle
        case running(Core, LoopExecutor?)
        case unavailable(String)
        case stopped
    }

    private let phase = Mutex(Phase.idle)
    /// Limits used when a request sets none.
    public let defaultLimits: TransferLimits
    /// The `User-Agent` sent.
    public let userAgent: String
    /// The most connections open to one host (name and port) at once; at least 1.
    public let maxConnectionsPerHost: Int
    /// Held while the I/O thread runs a burst of jobs; nil for none.
    public let heldWakeups: HeldWakeups?

    /// Cheap: libcurl is loaded and the I/O thread started by the first `send`. One transport serves a whole process.
    ///
    /// - Parameter maxConnectionsPerHost: the most connections open to one host at once (less than 1 counts as 1). Transfers
    ///   beyond it wait for a connection to free up, within their timeouts; over HTTP/2 one connection carries many.
    /// - Parameter heldWakeups: held while the I/O thread runs a burst of jobs (see `LoopExecutor`), so that the work they
    ///   queue for the threads sharing it (the store's writes) is taken there in one go; nil to hold none.
    public init(defaultLimits: TransferLimits = TransferLimits(), userAgent: String = "isobar", maxConnectionsPerHost: Int = 8,
                heldWakeups: HeldWakeups? = nil) {
        self.defaultLimits = defaultLimits
        self.userAgent = userAgent
        self.maxConnectionsPerHost = max(1, maxConnectionsPerHost)
        self.heldWakeups = heldWakeups
    }

    deinit {
        stop()
    }

    /// How many libcurl easy handles the transport has created: one per transfer in flight at once, as a finished
    /// transfer's handle is taken by the next one.
    var easyHandlesCreated: Int { runningCore?.handlesMade.load(ordering: .relaxed) ?? 0 }

    /// Wake-ups sent to the I/O thread so far, 0 before it runs (tests).
    var loopWakes: Int { runningCore?.wakes.load(ordering: .relaxed) ?? 0 }

    /// The I/O thread (`pthread_self()` there), once it has started; nil before and after.
    var loopThread: UInt? { runningCore.map { $0.loopThread.load(ordering: .relaxed) }.flatMap { $0 == 0 ? nil : $0 } }

    /// The core while the transport runs.
    private var runningCore: Core? {
        phase.withLock { phase in
            if case .running(let core, _) = phase { return core }
            return nil
        }
    }

    /// Ends the I/O thread; transfers still in flight fail as cancelled, and so does every later request.
    public func stop() {
        let running: Core? = phase.withLock { phase in
            defer { phase = .stopped }
            if case .running(let core, _) = phase { return core }
            return nil
        }
        guard let running else { return }
        running.inbox.withLock { $0.stopping = true }
        running.wake()
    }

    /// The running core, loading libcurl and starting the I/O thread on the first call; `label` names the request in errors.
    private func start(label: String) throws(ProviderError) -> Core {
        try phase.withLock { phase throws(ProviderError) -> Core in try Self.start(&phase, label: label, userAgent: userAgent,
                                                                                   maxConnectionsPerHost: maxConnectionsPerHost, heldWakeups: heldWakeups) }
    }

    /// A task executor that runs its jobs on the I/O thread, between polls (see `LoopExecutor`); one per transport, so that
    /// every task preferring it sees the same executor. Nil when libcurl cannot be used or the transport was stopped.
    public func loopExecutor() -> LoopExecutor? {
        phase.withLock { phase -> LoopExecutor? in
            guard let core = try? Self.start(&phase, label: "isobar", userAgent: userAgent, maxConnectionsPerHost: maxConnectionsPerHost,
                                            heldWakeups: heldWakeups)
            else { return nil }
            if case .running(_, let made?) = phase { return made }
            let executor = LoopExecutor(core: core)
            phase = .running(core, executor)
            return executor
        }
    }

    /// The running core, starting it when `phase` is idle.
    private static func start(_ phase: inout Phase, label: String, userAgent: String,
                              maxConnectionsPerHost: Int, heldWakeups: HeldWakeups?) throws(ProviderError) -> Core {
        switch phase {
        case .running(let core, _):
            return core
        case .stopped:
            throw ProviderError(.cancelled, "\(label): the HTTP transport was stopped", reason: .cancelled)
        case .unavailable(let reason):
            throw ProviderError(.unavailable, "\(label): libcurl cannot be loaded (\(reason))", reason: .transportFailure)
        case .idle:
            if let reason = CurlLibrary.failure {
                phase = .unavailable(reason)
                throw ProviderError(.unavailable, "\(label): libcurl cannot be loaded (\(reason))", reason: .transportFailure)
            }
            guard let multi = isobar_curl_multi_init() else {
                throw ProviderError(.unavailable, "\(label): libcurl cannot create a multi handle", reason: .transportFailure)
            }
            guard Self.configure(multi, maxConnectionsPerHost: maxConnectionsPerHost) else {
                _ = isobar_curl_multi_cleanup(multi)
                throw ProviderError(.unavailable, "\(label): libcurl refused the connection settings", reason: .transportFailure)
            }
            guard let loop = isobar_curl_loop_create(multi) else {
                _ = isobar_curl_multi_cleanup(multi)
                throw ProviderError(.unavailable, "\(label): cannot set up the HTTP event loop", reason: .transportFailure)
            }
            let core = Core(multi: multi, loop: loop, userAgent: userAgent, heldWakeups: heldWakeups)
            let ioLoop = IOLoop(core: core)
            if case .failure(let error) = PlainThread.detach({ ioLoop.run() }) {
                throw ProviderError(.unavailable, "\(label): cannot start the HTTP I/O thread (error \(error.code))",
                                    reason: .transportFailure)
            }
            phase = .running(core, nil)
            return core
        }
    }

    /// Sets the connection policy on a new multi handle; false when libcurl refuses any of it.
    ///
    /// No `CURLMOPT_MAX_TOTAL_CONNECTIONS`: a process talks to a handful of provider hosts, so the per-host cap already
    /// bounds its sockets, and a global cap would let a burst to one provider queue the requests to the others.
    private static func configure(_ multi: UnsafeMutableRawPointer, maxConnectionsPerHost: Int) -> Bool {
        // Idle connections kept for reuse, over all hosts.
        isobar_curl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, 16) == CURLM_OK
            && isobar_curl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, maxConnectionsPerHost) == CURLM_OK
            // Several HTTP/2 streams on one connection (libcurl's default since 7.62; said here as it is relied on).
            && isobar_curl_multi_set_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX) == CURLM_OK
    }

    /// Sends the request and waits for the whole response, or fails with a `ProviderError`.
    public func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        guard request.url.scheme == "https" || Self.isLoopback(request.url.host) else {
            let label = request.origin.isEmpty ? request.url.authority : request.origin
            throw ProviderError(.unsupported, "\(label): refusing plain http to \(request.url.authority); only loopback hosts may use http",
                                reason: .insecureURL)
        }
        let core = try start(label: request.origin.isEmpty ? request.url.authority : request.origin)
        let started = ContinuousClock.now
        var limits = request.limits ?? defaultLimits
        var shortened = Transfer.Shortened()
        if let notAfter = request.notAfter {
            let remaining = max(0.001, notAfter.timeIntervalSinceNow)
            shortened = Transfer.Shortened(connect: remaining < limits.connectTimeoutSeconds, total: remaining < limits.totalTimeoutSeconds)
            limits.totalTimeoutSeconds = min(limits.totalTimeoutSeconds, remaining)
            limits.connectTimeoutSeconds = min(limits.connectTimeoutSeconds, remaining)
        }
        // Redirects are followed here, not by libcurl, so that each target is checked before anything is sent to it.
        var current = request
        var followed = 0
        while true {
            var hopLimits = limits
            var hopShortened = shortened
            if followed > 0 {
                let spent = started.duration(to: .now)
                let remaining = max(0.001, limits.totalTimeoutSeconds - Double(spent.components.seconds)
                                    - Double(spent.components.attoseconds) / 1e18)
                hopLimits.totalTimeoutSeconds = remaining
                hopLimits.connectTimeoutSeconds = min(limits.connectTimeoutSeconds, remaining)
                // What is left of a total the deadline shortened is what is left of the deadline, for connecting too.
                hopShortened.connect = shortened.connect || (shortened.total && remaining < limits.connectTimeoutSeconds)
            }
            let response = try await perform(current, limits: hopLimits, shortened: hopShortened, core: core)
            guard let next = try Redirects.next(after: response, to: current, followed: followed) else { return response }
            current = next
            followed += 1
        }
    }

    /// Sends one request (no redirects followed) through the I/O thread and waits for its response.
    private func perform(_ request: HTTPRequest, limits: TransferLimits, shortened: Transfer.Shortened,
                         core: Core) async throws(ProviderError) -> HTTPResponse {
        let started = ContinuousClock.now
        let id = core.inbox.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let transfer = Transfer(id: id, request: request, limits: limits, userAgent: userAgent, started: started, shortened: shortened)
        do {
            return try await withTaskCancellationHandler {
                // Unsafe, not checked: `Transfer.finish` resumes exactly once, and the checked kind costs an object a request.
                try await withUnsafeThrowingContinuation { continuation in
                    transfer.continuation = continuation
                    let accepted = core.inbox.withLock { state in
                        guard !state.stopping else { return false }
                        state.additions.append(transfer)
                        return true
                    }
                    if accepted {
                        if !core.isLoopThread { core.wake() }
                    } else {
                        transfer.finish(.failure(ProviderError(.cancelled, "\(transfer.label): the HTTP transport was stopped", reason: .cancelled)))
                    }
                }
            } onCancel: {
                core.inbox.withLock { _ = $0.cancellations.insert(id) }
                core.wake()
            }
        } catch let error as ProviderError {
            throw error
        } catch {
            throw ProviderError(.unavailable, "\(transfer.label): \(error)")
        }
    }

    /// True for 127.0.0.0/8, ::1 and localhost.
    public static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        guard host.hasPrefix("127.") else { return false }
        // Four parts of 1 to 3 digits, each at most 255 (asked of every request: no array is made).
        var parts = 0, digits = 0, value = 0
        for byte in host.utf8 {
            if byte == UInt8(ascii: ".") {
                guard digits > 0 else { return false }
                parts += 1
                digits = 0
                value = 0
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                digits += 1
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                guard digits <= 3, value <= 255 else { return false }
            } else {
                return false
            }
        }
        return parts == 3 && digits > 0
    }

    /// Runs on the I/O thread only.
    private final class IOLoop: @unchecked Sendable {
        // Safety: touched only by the I/O thread after it starts.
        private let core: Core
        private var active: [UnsafeMutableRawPointer: Transfer] = [:]
        private var cancelledEarly: Set<Int> = []
        private var arrivals = TransferArrivals()
        /// No transfer in `active` is due before this; nil when unknown (then `endOverdue` looks at every one).
        private var earliestDeadline: ContinuousClock.Instant?
        /// Easy handles of finished transfers, ready for the next ones.
        private var idleHandles: [UnsafeMutableRawPointer] = []

        init(core: Core) { self.core = core }

        func run() {
            let multi = core.multi
            core.loopThread.store(pthread_self(), ordering: .relaxed)
            defer { core.jobs.close() }
            while true {
                let (additions, cancellations, stopping) = core.inbox.withLock { state in
                    defer {
                        state.additions.removeAll()
                        state.cancellations.removeAll()
                    }
                    return (state.additions, state.cancellations, state.stopping)
                }
                if stopping {
                    // Requests queued in the same breath as the stop still get their answer: cancelled.
                    for transfer in additions {
                        transfer.finish(.failure(ProviderError(.cancelled, "\(transfer.label): cancelled", reason: .cancelled)))
                    }
                    break
                }
                cancelledEarly.formUnion(cancellations)
                for transfer in additions {
                    arrivals.arrived(transfer.id)
                    start(transfer, multi)
                }
                if !cancelledEarly.isEmpty {
                    for (handle, transfer) in active where cancelledEarly.contains(transfer.id) {
                        end(handle, transfer, .failure(ProviderError(.cancelled, "\(transfer.label): cancelled", reason: .cancelled)), multi)
                    }
                    // Keep only cancellations whose transfer has not arrived yet.
                    cancelledEarly = cancelledEarly.filter { !arrivals.hasArrived($0) }
                }
                // libcurl acts only on the sockets that are ready and on its due timeouts, then reports what finished.
                let wait = endOverdue(multi)
                _ = isobar_curl_loop_run(core.loop, core.jobs.isEmpty ? wait : 0)
                var remaining: Int32 = 0
                while let message = isobar_curl_multi_info_read(multi, &remaining) {
                    var handle: UnsafeMutableRawPointer?
                    var result = CURLE_OK
                    guard isobar_curl_message_done(message, &handle, &result) == 1, let handle, let transfer = active[handle] else { continue }
                    end(handle, transfer, transfer.outcome(result), multi)
                }
                // The tasks resumed by those answers, and any others waiting for this thread.
                core.jobs.runWaiting()
            }
            for (handle, transfer) in active {
                end(handle, transfer, .failure(ProviderError(.cancelled, "\(transfer.label): cancelled", reason: .cancelled)), multi)
            }
            for transfer in core.inbox.withLock({ $0.additions }) {
                transfer.finish(.failure(ProviderError(.cancelled, "\(transfer.label): cancelled", reason: .cancelled)))
            }
        }

        /// Ends, as timed out, the transfers whose total time has run out, and returns the milliseconds until the next
        /// one's does (at most 1000).
        ///
        /// libcurl before 8.8 does not time out a transfer queued for a connection (the host at its connection cap):
        /// without this, a queued transfer would wait for a free connection however long that takes. Deadlines count
        /// from `send`, a little before libcurl's own clock starts, so this ends most timed-out transfers, queued or not;
        /// the error is the one libcurl's timeout would give.
        private func endOverdue(_ multi: UnsafeMutableRawPointer) -> Int32 {
            let now = ContinuousClock.now
            var wait = Duration.seconds(1)
            if let earliestDeadline, earliestDeadline > now {
                // No transfer is due before the earliest deadline seen (one that ended since only makes it early).
                wait = min(wait, now.duration(to: earliestDeadline))
            } else {
                earliestDeadline = nil
                for (handle, transfer) in active {
                    let deadline = transfer.deadline
                    if deadline <= now {
                        end(handle, transfer, transfer.outcome(CURLE_OPERATION_TIMEDOUT), multi)
                    } else {
                        wait = min(wait, now.duration(to: deadline))
                        earliestDeadline = min(earliestDeadline ?? deadline, deadline)
                    }
                }
            }
            let (seconds, attoseconds) = wait.components
            // Rounded up, so that the loop does not wake just before a deadline and spin.
            return Int32(seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        }

        private func start(_ transfer: Transfer, _ multi: UnsafeMutableRawPointer) {
            if cancelledEarly.remove(transfer.id) != nil {
                transfer.finish(.failure(ProviderError(.cancelled, "\(transfer.label): cancelled", reason: .cancelled)))
                return
            }
            guard let handle = idleHandles.popLast() ?? makeHandle(), transfer.prepare(on: handle),
                  isobar_curl_multi_add_handle(multi, handle) == CURLM_OK else {
                if let handle = transfer.release() { isobar_curl_easy_cleanup(handle) }
                transfer.finish(.failure(ProviderError(.unavailable, "\(transfer.label): libcurl refused the request", reason: .transportFailure)))
                return
            }
            active[handle] = transfer
            earliestDeadline = min(earliestDeadline ?? transfer.deadline, transfer.deadline)
        }

        /// A new easy handle with the options every transfer shares.
        private func makeHandle() -> UnsafeMutableRawPointer? {
            core.handlesMade.add(1, ordering: .relaxed)
            return Transfer.makeHandle(userAgent: core.userAgent)
        }

        private func end(_ handle: UnsafeMutableRawPointer, _ transfer: Transfer, _ result: Result<HTTPResponse, ProviderError>,
                         _ multi: UnsafeMutableRawPointer) {
            _ = isobar_curl_multi_remove_handle(multi, handle)
            active[handle] = nil
            if let released = transfer.release() {
                // A handle whose transfer went well is kept for the next one (`Transfer.prepare` sets every option a
                // request may change); one that failed, timed out or was cancelled is freed, state and all.
                if case .success = result, idleHandles.count < Self.idleHandleLimit {
                    idleHandles.append(released)
                } else {
                    isobar_curl_easy_cleanup(released)
                }
            }
            transfer.finish(result)
        }

        /// The most easy handles kept idle for reuse.
        private static let idleHandleLimit = 64

        deinit {
            for handle in idleHandles { isobar_curl_easy_cleanup(handle) }
        }
    }
}

/// Loads libcurl and runs `curl_global_init`, once per process.
enum CurlLibrary {
    /// Nil once libcurl is loaded and initialised; otherwise a one-line reason why it cannot be used.
    static let failure: String? = {
        var buffer = [CChar](repeating: 0, count: 512)
        let loaded = buffer.withUnsafeMutableBufferPointer { isobar_curl_load($0.baseAddress, $0.count) }
        guard loaded == 1 else {
            let reason = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return reason.isEmpty ? "libcurl.so.4 cannot be loaded" : reason
        }
        let code = isobar_curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        guard code == CURLE_OK else { return "curl_global_init failed: \(TransportErrors.describe(code))" }
        return nil
    }()

    /// True when libcurl is usable and can speak HTTP/2.
    static let supportsHTTP2: Bool = failure == nil && isobar_curl_supports_http2() == 1
}
