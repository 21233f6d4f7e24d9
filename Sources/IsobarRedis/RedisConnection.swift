import CHiredis
import Dispatch
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One reply of the server, copied out of hiredis.
enum RedisReply: Sendable, Equatable {
    /// A bulk or status string.
    case string(String)
    /// An integer.
    case integer(Int64)
    /// An array of replies.
    case array([RedisReply])
    /// No value.
    case null
    /// An error the server answered with, e.g. `NOSCRIPT …`.
    case error(String)

    /// The text of a string reply, or of an integer.
    var text: String? {
        switch self {
        case .string(let text): text
        case .integer(let value): String(value)
        default: nil
        }
    }
}

/// Why a command got no reply: the server could not be reached, did not answer in time, or the connection broke.
struct RedisFailure: Error, Sendable {
    /// One line for people, naming the server (password masked) and the cause.
    var message: String
}

/// The one place that touches hiredis: a connection, opened on first use and again after any failure.
///
/// hiredis contexts are not thread-safe, and every call blocks (up to the timeout). A call finding the connection idle runs
/// on the caller's thread: on loopback a round trip is tens of microseconds, less than handing it to another thread and
/// back, and at worst (a server that stopped answering) it blocks for the timeout once, after which `SharedStoreState`
/// leaves the server alone for a while. Calls that find it busy queue on a serial queue of its own instead, so that
/// concurrent callers never hold Swift's cooperative threads while they wait for each other.
final class RedisConnection: @unchecked Sendable {
    // Safety of `@unchecked Sendable`: `context` is read and written only while `lock` is held.
    private let url: RedisURL
    private let timeoutMilliseconds: Int
    private let queue = DispatchQueue(label: "isobar.redis")
    private let lock = Mutex(())
    private var context: UnsafeMutablePointer<redisContext>?

    /// A connection to `url` whose connect and every command give up after `timeoutMilliseconds`.
    init(url: RedisURL, timeoutMilliseconds: Int) {
        self.url = url
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    deinit {
        if let context { redisFree(context) }
    }

    /// Sends `arguments` as one command and returns the reply (an `.error` reply is returned, not thrown).
    func command(_ arguments: [String]) async throws(RedisFailure) -> RedisReply {
        if let done = lock.withLockIfAvailable({ _ in send(arguments) }) { return try done.get() }
        let result: Result<RedisReply, RedisFailure> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.lock.withLock { _ in self.send(arguments) }) }
        }
        return try result.get()
    }

    /// Runs with `lock` held: connects when needed, sends, copies the reply; any failure drops the context so the next call reconnects.
    private func send(_ arguments: [String]) -> Result<RedisReply, RedisFailure> {
        do {
            let context = try connected()
            return .success(try exchange(context, arguments))
        } catch {
            if let context { redisFree(context) }
            context = nil
            return .failure(error)
        }
    }

    private func connected() throws(RedisFailure) -> UnsafeMutablePointer<redisContext> {
        if let context { return context }
        let timeout = isobar_redis_timeval(timeoutMilliseconds)
        guard let opened = redisConnectWithTimeout(url.host, Int32(url.port), timeout) else {
            throw RedisFailure(message: "\(url.masked): cannot allocate a connection")
        }
        context = opened
        if isobar_redis_error_code(opened) != 0 {
            throw RedisFailure(message: "\(url.masked): \(String(cString: isobar_redis_error_text(opened)))")
        }
        guard redisSetTimeout(opened, timeout) == REDIS_OK else {
            throw RedisFailure(message: "\(url.masked): cannot set the timeout")
        }
        if let password = url.password {
            let auth = try exchange(opened, url.user.map { ["AUTH", $0, password] } ?? ["AUTH", password])
            if case .error(let message) = auth { throw RedisFailure(message: "\(url.masked): \(Self.redacted(message, password))") }
        }
        if url.database != 0, case .error(let message) = try exchange(opened, ["SELECT", String(url.database)]) {
            throw RedisFailure(message: "\(url.masked): \(message)")
        }
        return opened
    }

    private func exchange(_ context: UnsafeMutablePointer<redisContext>, _ arguments: [String]) throws(RedisFailure) -> RedisReply {
        // The arguments' bytes side by side in one buffer, read by hiredis only up to each one's length.
        let lengths = arguments.map { $0.utf8.count }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, lengths.reduce(0, +)), alignment: 1)
        defer { bytes.deallocate() }
        var starts: [UnsafePointer<CChar>?] = []
        starts.reserveCapacity(arguments.count)
        var offset = 0
        for (argument, length) in zip(arguments, lengths) {
            UnsafeMutableRawBufferPointer(rebasing: bytes[offset..<(offset + length)]).copyBytes(from: argument.utf8)
            starts.append(UnsafePointer(bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: CChar.self)))
            offset += length
        }
        let reply = isobar_redis_command(context, Int32(arguments.count), starts, lengths)
        guard let reply else {
            let cause = isobar_redis_timed_out(context) != 0 ? "no answer in \(timeoutMilliseconds) ms"
                : String(cString: isobar_redis_error_text(context))
            throw RedisFailure(message: "\(url.masked): \(cause.isEmpty ? "the connection broke" : cause)")
        }
        defer { freeReplyObject(reply) }
        return Self.copy(reply)
    }

    private static func copy(_ reply: UnsafePointer<redisReply>) -> RedisReply {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STRING, REDIS_REPLY_STATUS: return .string(text(value))
        case REDIS_REPLY_ERROR: return .error(text(value))
        case REDIS_REPLY_INTEGER: return .integer(Int64(value.integer))
        case REDIS_REPLY_ARRAY:
            return .array((0..<Int(value.elements)).map { index in value.element[index].map { copy($0) } ?? .null })
        default: return .null
        }
    }

    private static func text(_ reply: redisReply) -> String {
        guard let bytes = reply.str else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(reply.len)), as: UTF8.self)
    }

    /// `message` with every occurrence of the password removed.
    private static func redacted(_ message: String, _ password: String) -> String {
        password.isEmpty ? message : message.replacing(password, with: "***")
    }
}
