import CCurl
import IsobarCore

/// One request in flight: its easy handle, what has arrived so far, and who waits for it.
///
/// Created on the caller's task, then owned by the I/O thread until it resumes `continuation` exactly once.
final class Transfer: @unchecked Sendable {
    let id: Int
    let request: HTTPRequest
    let limits: TransferLimits
    let userAgent: String
    /// When the caller sent it: its total timeout counts from here, time spent queued for a connection included.
    let started: ContinuousClock.Instant
    /// Which of `limits` the request's deadline made shorter than the transfer's own, as it was sent.
    let shortened: Shortened
    var continuation: UnsafeContinuation<HTTPResponse, any Error>?
    var handle: UnsafeMutableRawPointer?
    var headerList: UnsafeMutablePointer<curl_slist>?
    var body: [UInt8] = []
    var headers: [HTTPHeader] = []
    var refusedAsTooLarge = false

    /// Which limits a request's deadline shortened: a timeout of one of those says how little was left, not the limit's own value.
    struct Shortened: Sendable {
        /// The connect timeout is what was left before the deadline.
        var connect = false
        /// The total timeout is what was left before the deadline.
        var total = false
    }

    init(id: Int, request: HTTPRequest, limits: TransferLimits, userAgent: String, started: ContinuousClock.Instant = .now,
         shortened: Shortened = Shortened()) {
        self.id = id
        self.request = request
        self.limits = limits
        self.userAgent = userAgent
        self.started = started
        self.shortened = shortened
    }

    /// When its total timeout runs out.
    var deadline: ContinuousClock.Instant { started + .seconds(limits.totalTimeoutSeconds) }

    /// Resumes the waiting task once; later calls do nothing.
    func finish(_ result: Result<HTTPResponse, ProviderError>) {
        guard let continuation else { return }
        self.continuation = nil
        switch result {
        case .success(let response): continuation.resume(returning: response)
        case .failure(let error): continuation.resume(throwing: error)
        }
    }

    /// A new easy handle with the options every transfer shares (protocols, redirects left to `CurlTransport`, TLS
    /// verification, compression, HTTP/2 through ALPN, the callbacks); nil when libcurl refuses. `prepare` sets the rest.
    static func makeHandle(userAgent: String) -> UnsafeMutableRawPointer? {
        guard let handle = isobar_curl_easy_init() else { return nil }
        var ok = true
        func check(_ code: CURLcode) { if code != CURLE_OK { ok = false } }
        check(isobar_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        // Redirects are followed by `CurlTransport`, which checks each target first (`Redirects`).
        check(isobar_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        check(isobar_curl_set_long(handle, CURLOPT_NOSIGNAL, 1))
        check(isobar_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, "gzip, deflate"))
        check(isobar_curl_set_string(handle, CURLOPT_USERAGENT, userAgent))
        check(isobar_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
        check(isobar_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
        if CurlLibrary.supportsHTTP2 {
            // HTTP/2 when the server offers it through ALPN, else HTTP/1.1; plain http is always HTTP/1.1. A libcurl
            // without HTTP/2 would refuse this option, so it is left at HTTP/1.1 there.
            check(isobar_curl_set_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)))
        }
        check(isobar_curl_set_callback(handle, CURLOPT_WRITEFUNCTION, receiveBody))
        check(isobar_curl_set_callback(handle, CURLOPT_HEADERFUNCTION, receiveHeader))
        guard ok else {
            isobar_curl_easy_cleanup(handle)
            return nil
        }
        return handle
    }

    /// Takes `handle` (from `makeHandle`, new or used by an earlier transfer) and sets everything that belongs to this
    /// request, every option a request may change included, so that nothing of an earlier transfer carries over; returns
    /// false when libcurl refuses.
    func prepare(on handle: UnsafeMutableRawPointer) -> Bool {
        self.handle = handle
        let milliseconds: (Double) -> Int = { Int(($0 * 1000).rounded()) }
        var ok = true
        func check(_ code: CURLcode) { if code != CURLE_OK { ok = false } }
        check(isobar_curl_set_string(handle, CURLOPT_URL, request.url.string))
        check(isobar_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(limits.connectTimeoutSeconds)))
        check(isobar_curl_set_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(limits.totalTimeoutSeconds)))
        check(isobar_curl_set_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxResponseBytes)))
        check(isobar_curl_set_long(handle, CURLOPT_PIPEWAIT, waitsToMultiplex ? 1 : 0))
        // NULL restores GET.
        check(isobar_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method != "GET" ? request.method : nil))
        for header in request.headers {
            // On failure libcurl leaves the list as it was (still ours to free) and returns nil.
            guard let appended = isobar_curl_slist_append(headerList, "\(header.name): \(header.value)") else {
                ok = false
                break
            }
            headerList = appended
        }
        // NULL clears the headers of an earlier transfer.
        check(isobar_curl_set_list(handle, CURLOPT_HTTPHEADER, headerList))
        let context = Unmanaged.passUnretained(self).toOpaque()
        check(isobar_curl_set_pointer(handle, CURLOPT_WRITEDATA, context))
        check(isobar_curl_set_pointer(handle, CURLOPT_HEADERDATA, context))
        return ok
    }

    /// Whether a transfer to a host whose connection is still being set up waits to learn if it can share it (HTTP/2)
    /// instead of opening another: over https only, as plain http never multiplexes and waiting would only serialise it.
    var waitsToMultiplex: Bool { request.url.scheme == "https" && CurlLibrary.supportsHTTP2 }

    /// Gives up the easy handle (returned, for the caller to keep or free) and frees the header list.
    func release() -> UnsafeMutableRawPointer? {
        let released = handle
        if let headerList { isobar_curl_slist_free_all(headerList) }
        handle = nil
        headerList = nil
        return released
    }

    /// The response once libcurl reports the transfer done with `code`.
    func outcome(_ code: CURLcode) -> Result<HTTPResponse, ProviderError> {
        guard let handle else { return .failure(ProviderError(.cancelled, "\(label): cancelled")) }
        if code == CURLE_OK {
            var status = 0
            _ = isobar_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
            return .success(HTTPResponse(status: status, headers: headers, body: body))
        }
        var connectTime: curl_off_t = 0
        _ = isobar_curl_get_offset(handle, CURLINFO_CONNECT_TIME_T, &connectTime)
        // The connect timeout counts from when connecting began, never before `started`: a transfer not connected
        // before that much time has passed (queued for a connection, say) ran out of its total time instead.
        let connectTimeSpent = started.duration(to: .now) >= .seconds(limits.connectTimeoutSeconds) - .milliseconds(10)
        let connectTimedOut = connectTime == 0 && connectTimeSpent
        return .failure(TransportErrors.map(code, label: label, host: request.url.authority, limits: limits,
                                            connectTimedOut: connectTimedOut, refusedAsTooLarge: refusedAsTooLarge,
                                            shortenedByDeadline: connectTimedOut ? shortened.connect : shortened.total))
    }

    /// `Provider (host)` for messages; never the URL, whose query may hold a key.
    var label: String { request.origin.isEmpty ? request.url.authority : request.origin }
}

/// Appends body bytes, refusing the transfer once it passes the size limit.
private func receiveBody(_ bytes: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let bytes, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard transfer.body.count + length <= transfer.limits.maxResponseBytes else {
        transfer.refusedAsTooLarge = true
        return 0
    }
    if transfer.body.isEmpty, let declared = declaredLength(transfer.headers), declared > length {
        // Room for the whole body at once, instead of growing it chunk by chunk (a compressed body may still outgrow it);
        // at most 1 MiB ahead of the bytes themselves, whatever a server declares.
        transfer.body.reserveCapacity(min(declared, transfer.limits.maxResponseBytes, 1 << 20))
    }
    bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
        transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
    }
    return length
}

/// The `Content-Length` the server declared, when it gave a plain number.
private func declaredLength(_ headers: [HTTPHeader]) -> Int? {
    guard let field = headers.last(where: { $0.name.utf8.count == 14 && $0.name.lowercased() == "content-length" }) else { return nil }
    return Int(field.value)
}

/// Collects header lines; a new status line (after a redirect) starts the list again.
private func receiveHeader(_ bytes: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let bytes, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    bytes.withMemoryRebound(to: UInt8.self, capacity: length) { start in
        if let field = HeaderLine.field(UnsafeBufferPointer(start: start, count: length)) {
            if transfer.headers.isEmpty { transfer.headers.reserveCapacity(16) }
            transfer.headers.append(field)
        } else if HeaderLine.isStatusLine(UnsafeBufferPointer(start: start, count: length)) {
            transfer.headers.removeAll()
        }
    }
    return length
}

/// Reads one raw header line as libcurl hands it over (CRLF included), without making a `String` of the whole line.
enum HeaderLine {
    /// True for a status line (`HTTP/1.1 200 OK`).
    static func isStatusLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.count >= 5 && line[0] == UInt8(ascii: "H") && line[1] == UInt8(ascii: "T") && line[2] == UInt8(ascii: "T")
            && line[3] == UInt8(ascii: "P") && line[4] == UInt8(ascii: "/")
    }

    /// The field of a `Name: value` line, its value without surrounding blanks and line ends; nil for a status line,
    /// the blank line ending the headers, or a line without a colon.
    static func field(_ line: UnsafeBufferPointer<UInt8>) -> HTTPHeader? {
        guard !isStatusLine(line), let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        func isBlank(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
        }
        var start = colon + 1
        var end = line.count
        while start < end, isBlank(line[start]) { start += 1 }
        while end > start, isBlank(line[end - 1]) { end -= 1 }
        let name = String(decoding: UnsafeBufferPointer(rebasing: line[..<colon]), as: UTF8.self)
        let value = String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
        return HTTPHeader(name, value)
    }
}
