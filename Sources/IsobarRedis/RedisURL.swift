/// Where the shared store is: `redis://[user:password@]host[:port][/db]`; shown only with the password masked.
public struct RedisURL: Sendable, Equatable, CustomStringConvertible {
    /// The host name or address.
    public var host: String
    /// The TCP port (6379 unless given).
    public var port: Int
    /// The logical database (0 unless given).
    public var database: Int
    /// The ACL user, if given.
    public var user: String?
    /// The password, if given; never printed.
    public var password: String?

    /// Reads a URL; the error says what is wrong in one line, without the password.
    public init(parsing text: String) throws(RedisURLError) {
        let scheme = text.prefix { $0 != ":" }
        guard text.dropFirst(scheme.count).hasPrefix("://") else {
            throw RedisURLError("the shared store must be a redis:// URL, e.g. redis://localhost:6379/0")
        }
        switch scheme.lowercased() {
        case "redis": break
        case "rediss":
            throw RedisURLError("rediss:// (TLS) is not supported: this build's hiredis has no TLS; use redis:// on a private "
                + "network, or a TLS tunnel (stunnel, spiped) to a local port")
        default: throw RedisURLError("the shared store must be a redis:// URL, not \(scheme)://")
        }
        var rest = Substring(text.dropFirst(scheme.count + 3))
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = credentials[..<colon].isEmpty ? nil : try Self.decoded(credentials[..<colon], "user")
                password = try Self.decoded(credentials[credentials.index(after: colon)...], "password")
            } else {
                // `redis://secret@host`, as redis-cli reads it: the only credential is the password.
                password = try Self.decoded(credentials, "password")
            }
        }
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count).dropFirst()
        (host, port) = try Self.hostAndPort(authority)
        database = 0
        if !path.isEmpty {
            guard let number = Int(path), (0...15_999).contains(number) else {
                throw RedisURLError("the shared store's database must be a number, e.g. redis://\(host):\(port)/0")
            }
            database = number
        }
    }

    /// The URL with the password masked, e.g. `redis://worker:***@cache.internal:6379/0`.
    public var masked: String {
        let credentials: String
        switch (user, password) {
        case (let user?, _?): credentials = "\(user):***@"
        case (nil, _?): credentials = ":***@"
        case (let user?, nil): credentials = "\(user)@"
        case (nil, nil): credentials = ""
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "redis://\(credentials)\(shownHost):\(port)/\(database)"
    }

    /// The masked URL.
    public var description: String { masked }

    private static func hostAndPort(_ authority: Substring) throws(RedisURLError) -> (String, Int) {
        var host = authority
        var portText: Substring = ""
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw RedisURLError("the shared store's host has an unclosed '['") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw RedisURLError("the shared store's address is not host:port")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty else { throw RedisURLError("the shared store's URL names no host, e.g. redis://localhost:6379/0") }
        guard !host.contains(where: { $0 == " " || $0 == "/" }) else { throw RedisURLError("the shared store's host is not a host name") }
        guard !portText.isEmpty else { return (String(host), 6379) }
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw RedisURLError("the shared store's port must be a number from 1 to 65535")
        }
        return (String(host), port)
    }

    private static func decoded(_ text: Substring, _ what: String) throws(RedisURLError) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let digits = utf8[utf8.index(after: index)...].prefix(2)
                guard digits.count == 2, let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16) else {
                    throw RedisURLError("the shared store's \(what) has a bad %-escape")
                }
                bytes.append(value)
                index = utf8.index(index, offsetBy: 3)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A shared-store URL that cannot be used; the message never holds the password.
public struct RedisURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line for people.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
