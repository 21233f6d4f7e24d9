import IsobarCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on 127.0.0.1 for tests: scripted responses, misbehaviour on demand, and counts of what it saw.
///
/// Each connection is served on its own thread with keep-alive. It listens on a free port until `stop()` or deinit.
public final class LoopbackServer: Sendable {
    /// A request as received.
    public struct Request: Sendable, Equatable {
        /// Method, e.g. `GET`.
        public let method: String
        /// Path without the query.
        public let path: String
        /// The raw query string (after `?`), percent-encoded as sent.
        public let query: String
        /// Header fields, names lower-cased.
        public let headers: [String: String]
        /// Which connection (1-based) carried it.
        public let connection: Int
        /// When it arrived, in seconds of the monotonic clock.
        public let receivedAt: Double

        /// The decoded value of a query parameter.
        public func parameter(_ name: String) -> String? {
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.first.map(String.init) == name { return parts.count > 1 ? PercentEncoding.decode(parts[1], plusIsSpace: true) : "" }
            }
            return nil
        }
    }

    /// How to misbehave while answering.
    public enum Fault: Sendable, Equatable {
        /// Answer properly.
        case none
        /// Declare the whole length, send only this many body bytes, then close.
        case truncateBody(after: Int)
        /// Send the headers, then nothing for this many seconds, then close.
        case stallAfterHeaders(seconds: Double)
        /// Use chunked encoding and close after this many body bytes without the final chunk.
        case closeMidChunkedBody(after: Int)
    }

    /// A scripted answer.
    public struct Response: Sendable {
        /// Status code.
        public var status: Int
        /// Header fields besides Content-Length / Transfer-Encoding / Content-Encoding.
        public var headers: [(String, String)]
        /// Body bytes (uncompressed).
        public var body: [UInt8]
        /// Seconds to wait before answering.
        public var delaySeconds: Double
        /// Send the body chunked.
        public var chunked: Bool
        /// Send the body gzip-encoded.
        public var gzip: Bool
        /// Misbehaviour, if any.
        public var fault: Fault

        /// A response; JSON content type unless headers say otherwise.
        public init(status: Int = 200, headers: [(String, String)] = [("Content-Type", "application/json; charset=utf-8")],
                    body: [UInt8], delaySeconds: Double = 0, chunked: Bool = false, gzip: Bool = false, fault: Fault = .none) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delaySeconds = delaySeconds
            self.chunked = chunked
            self.gzip = gzip
            self.fault = fault
        }

        /// A response with a text body.
        public init(status: Int = 200, _ text: String, headers: [(String, String)] = [("Content-Type", "application/json; charset=utf-8")],
                    delaySeconds: Double = 0) {
            self.init(status: status, headers: headers, body: Array(text.utf8), delaySeconds: delaySeconds)
        }
    }

    private struct Counters {
        var connections = 0
        var open = 0
        var peakOpen = 0
        var requests: [Request] = []
        var bytesSent = 0
    }

    private let listener: Int32
    /// Holds the port once the listener is closed (see `reserving`).
    private let reserve: Int32
    private let counters = Mutex(Counters())
    private let stopping = Atomic<Bool>(false)
    private let handler: @Sendable (Request) -> Response
    /// The port it listens on.
    public let port: Int

    /// Starts listening on 127.0.0.1 at a free port; `handler` answers every request.
    public init(handler: @escaping @Sendable (Request) -> Response) throws(ServerError) {
        signal(SIGPIPE, SIG_IGN)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError("socket() failed") }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 128) == 0 else {
            close(descriptor)
            throw ServerError("cannot listen on 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        reserve = Self.reserving(address)
        self.handler = handler
        // The loop holds the server only while it accepts once: a server nobody holds any more is stopped by its deinit
        // (its listener, the socket holding its port, and this thread end), instead of living as long as the process.
        Thread.start { [weak self] in
            while let server = self, server.acceptOnce() {}
        }
    }

    deinit {
        stop()
        if reserve >= 0 { close(reserve) }
    }

    /// A socket bound to the server's address and never listening, held as long as the server lives: once stopped, the
    /// port refuses every connection, and no other socket of the process (another test's server) can take it meanwhile.
    /// -1 when it cannot be made (the port is then free again once stopped, as before).
    private static func reserving(_ address: sockaddr_in) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = address
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            return -1
        }
        return descriptor
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Connections accepted so far.
    public var connectionCount: Int { counters.withLock { $0.connections } }
    /// Connections accepted and not yet closed.
    public var openConnections: Int { counters.withLock { $0.open } }
    /// The most connections that were open at the same time.
    public var peakOpenConnections: Int { counters.withLock { $0.peakOpen } }
    /// Requests received so far, in order.
    public var requests: [Request] { counters.withLock { $0.requests } }
    /// Body and header bytes written so far.
    public var bytesSent: Int { counters.withLock { $0.bytesSent } }

    /// Stops accepting; open connections end at their next read.
    public func stop() {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Waits up to 100 ms for a connection and serves it on a thread of its own; false once stopped.
    private func acceptOnce() -> Bool {
        guard !stopping.load(ordering: .sequentiallyConsistent) else { return false }
        var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 100) > 0 else { return true }
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return true }
        var noDelay: Int32 = 1
        setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let number = counters.withLock { counters in
            counters.connections += 1
            counters.open += 1
            counters.peakOpen = max(counters.peakOpen, counters.open)
            return counters.connections
        }
        Thread.start { [self] in serve(client, connection: number) }
        return true
    }

    private func serve(_ client: Int32, connection: Int) {
        defer {
            close(client)
            counters.withLock { $0.open -= 1 }
        }
        var buffer: [UInt8] = []
        while !stopping.load(ordering: .sequentiallyConsistent) {
            guard let head = readHead(client, &buffer) else { return }
            guard let request = parse(head, connection: connection) else { return }
            counters.withLock { $0.requests.append(request) }
            let response = handler(request)
            if response.delaySeconds > 0 { Thread.sleep(response.delaySeconds) }
            guard write(response, to: client) else { return }
            if request.headers["connection"]?.lowercased() == "close" { return }
        }
    }

    private func readHead(_ client: Int32, _ buffer: inout [UInt8]) -> String? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        while true {
            if let end = buffer.firstRange(of: terminator) {
                let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<end.upperBound)
                return head
            }
            var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 100)
            if stopping.load(ordering: .sequentiallyConsistent) { return nil }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 16_384)
            let count = recv(client, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
            if buffer.count > 1 << 20 { return nil }
        }
    }

    private func parse(_ head: String, connection: Int) -> Request? {
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count == 3 else { return nil }
        let target = parts[1]
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        let query = target.contains("?") ? String(target.split(separator: "?", maxSplits: 1)[1]) : ""
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...]).trimmingSpaces()
        }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Request(method: String(parts[0]), path: path, query: query, headers: headers, connection: connection,
                       receivedAt: Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
    }

    private func write(_ response: Response, to client: Int32) -> Bool {
        var body = response.gzip ? Gzip.stored(response.body) : response.body
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        if response.gzip { head += "Content-Encoding: gzip\r\n" }
        var chunked = response.chunked
        if case .closeMidChunkedBody = response.fault { chunked = true }
        head += chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: \(body.count)\r\n"
        head += "\r\n"
        guard send(Array(head.utf8), client) else { return false }
        switch response.fault {
        case .none:
            if chunked {
                var offset = 0
                while offset < body.count {
                    let size = min(4096, body.count - offset)
                    guard send(Array("\(String(size, radix: 16))\r\n".utf8) + body[offset..<offset + size] + [13, 10], client) else { return false }
                    offset += size
                }
                return send(Array("0\r\n\r\n".utf8), client)
            }
            return send(body, client)
        case .truncateBody(let after):
            _ = send(Array(body.prefix(after)), client)
            return false
        case .stallAfterHeaders(let seconds):
            Thread.sleep(seconds)
            return false
        case .closeMidChunkedBody(let after):
            body = Array(body.prefix(after))
            _ = send(Array("\(String(body.count, radix: 16))\r\n".utf8) + body + [13, 10], client)
            return false
        }
    }

    private func send(_ bytes: [UInt8], _ client: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return false }
            offset += written
            counters.withLock { $0.bytesSent += written }
        }
        return true
    }

    private static func reason(_ status: Int) -> String {
        [200: "OK", 301: "Moved Permanently", 302: "Found", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found",
         429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable"][status] ?? "Status"
    }
}

/// The loopback server could not start.
public struct ServerError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The server's threads: started as every thread of Isobar is (`PlainThread`), and slept on plainly.
enum Thread {
    /// Runs `body` on a new detached thread; a server that cannot start one stops the test here, loudly.
    static func start(_ body: @escaping @Sendable () -> Void) {
        if case .failure(let error) = PlainThread.detach(body) { preconditionFailure("cannot start a thread (error \(error.code))") }
    }

    /// Blocks this (server) thread.
    static func sleep(_ seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

/// gzip framing around stored (uncompressed) deflate blocks: valid gzip that any decoder must accept.
enum Gzip {
    static func stored(_ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]
        var offset = 0
        repeat {
            let size = min(65_535, data.count - offset)
            let last: UInt8 = offset + size == data.count ? 1 : 0
            output += [last, UInt8(size & 0xff), UInt8(size >> 8), UInt8(~size & 0xff), UInt8((~size >> 8) & 0xff)]
            output += data[offset..<offset + size]
            offset += size
        } while offset < data.count
        let crc = crc32(data)
        let length = UInt32(truncatingIfNeeded: data.count)
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8((crc >> UInt32(shift)) & 0xff)) }
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8((length >> UInt32(shift)) & 0xff)) }
        return output
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xedb8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
