/// One query parameter, stored decoded; encoding happens only when the URL is written out.
public struct QueryItem: Sendable, Hashable {
    /// Parameter name.
    public var name: String
    /// Parameter value.
    public var value: String

    /// Creates a parameter.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// An absolute http(s) URL split into parts, so that query strings are built by encoding, never by gluing text.
public struct RequestURL: Sendable, Hashable, CustomStringConvertible {
    /// `https` or `http`, lower case.
    public var scheme: String
    /// Host name or address, lower case, without brackets.
    public var host: String
    /// Explicit port, when given.
    public var port: Int?
    /// Decoded path starting with `/` (may be just `/`).
    public var path: String
    /// Query parameters in order.
    public var query: [QueryItem]

    /// Parses an absolute `http` or `https` URL; nil when it is not one. The delimiters are all ASCII, so the text is read as
    /// UTF-8 bytes: a byte below 0x80 is never part of another character.
    public init?(string: String) {
        let utf8 = string.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), utf8[colon...].starts(with: "://".utf8),
              let scheme = Self.scheme(string[..<colon]) else { return nil }
        var rest = string[utf8.index(colon, offsetBy: 3)...]
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
        var queryText: Substring = ""
        if let question = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            queryText = rest[rest.utf8.index(after: question)...]
            rest = rest[..<question]
        }
        let slash = rest.utf8.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
        let authority = rest[..<slash]
        guard !authority.isEmpty, !authority.utf8.contains(UInt8(ascii: "@")) else { return nil }
        var host = authority
        var port: Int?
        if authority.utf8.first == UInt8(ascii: "[") {
            guard let close = authority.utf8.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = authority[authority.utf8.index(after: authority.startIndex)..<close]
            let after = authority[authority.utf8.index(after: close)...]
            if after.utf8.first == UInt8(ascii: ":") {
                guard let number = Int(after.dropFirst()) else { return nil }
                port = number
            } else if !after.isEmpty { return nil }
        } else if let colon = authority.utf8.lastIndex(of: UInt8(ascii: ":")) {
            guard let number = Int(authority[authority.utf8.index(after: colon)...]) else { return nil }
            host = authority[..<colon]
            port = number
        }
        if let port, !(1...65_535).contains(port) { return nil }
        guard !host.isEmpty, let path = PercentEncoding.decode(rest[slash...]) else { return nil }
        var items: [QueryItem] = []
        for pair in queryText.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentEncoding.decode(Substring(parts[0]), plusIsSpace: true),
                  let value = PercentEncoding.decode(parts.count > 1 ? Substring(parts[1]) : "", plusIsSpace: true) else { return nil }
            items.append(QueryItem(name, value))
        }
        self.scheme = scheme
        self.host = host.utf8.allSatisfy { $0 < 0x80 } ? Self.asciiLowercased(host) : host.lowercased()
        self.port = port
        self.path = path.isEmpty ? "/" : path
        self.query = items
    }

    /// `http` or `https` for `text` in any case; nil for any other scheme.
    private static func scheme(_ text: Substring) -> String? {
        if text.utf8.elementsEqual("http".utf8, by: { $0 | 0x20 == $1 }) { return "http" }
        if text.utf8.elementsEqual("https".utf8, by: { $0 | 0x20 == $1 }) { return "https" }
        return nil
    }

    /// ASCII `text` in lower case.
    private static func asciiLowercased(_ text: Substring) -> String {
        String(decoding: text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// This URL with `suffix` appended to its path (one `/` between them) and the given query.
    public func appending(path suffix: String, query: [QueryItem]) -> RequestURL {
        var copy = self
        let base = path.hasSuffix("/") ? String(path.dropLast()) : path
        copy.path = base + (suffix.hasPrefix("/") ? suffix : "/" + suffix)
        copy.query = query
        return copy
    }

    /// This URL without the named query parameters.
    public func removing(queryNames names: Set<String>) -> RequestURL {
        guard !names.isEmpty else { return self }
        var copy = self
        copy.query.removeAll { names.contains($0.name) }
        return copy
    }

    /// `host` or `host:port`, with brackets for IPv6.
    public var authority: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(shownHost):\($0)" } ?? shownHost
    }

    /// The encoded URL text.
    public var string: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scheme.utf8.count + host.utf8.count + path.utf8.count + 16
                              + query.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 })
        bytes += scheme.utf8
        bytes += "://".utf8
        bytes += authority.utf8
        PercentEncoding.append(path, keeping: PercentEncoding.pathTable, to: &bytes)
        for (index, item) in query.enumerated() {
            bytes.append(index == 0 ? UInt8(ascii: "?") : UInt8(ascii: "&"))
            PercentEncoding.append(item.name, keeping: PercentEncoding.queryTable, to: &bytes)
            bytes.append(UInt8(ascii: "="))
            PercentEncoding.append(item.value, keeping: PercentEncoding.queryTable, to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The encoded URL text.
    public var description: String { string }
}

/// RFC 3986 percent-encoding over UTF-8.
public enum PercentEncoding {
    /// Bytes left as they are in a path: unreserved characters and `/`.
    public static let pathSafe = Set(pathSafeCharacters.utf8)
    /// Bytes left as they are in a query name or value: unreserved characters and `,` (which list-valued parameters use).
    public static let querySafe = Set(querySafeCharacters.utf8)
    private static let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    private static let pathSafeCharacters = unreserved + "/"
    private static let querySafeCharacters = unreserved + ","

    /// Encodes every byte outside `safe` as `%XX`.
    public static func encode(_ text: String, keeping safe: Set<UInt8>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        append(text, keeping: ByteTable(safe), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `pathSafe` as a table (made from its characters: no set is built to write a URL).
    static let pathTable = ByteTable(pathSafeCharacters.utf8)
    /// `querySafe` as a table.
    static let queryTable = ByteTable(querySafeCharacters.utf8)

    /// Appends `text` to `bytes`, every byte outside `safe` as `%XX`.
    static func append(_ text: String, keeping safe: ByteTable, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            // Runs of safe bytes are copied whole.
            var run = 0
            for index in 0..<utf8.count where !safe.contains(utf8[index]) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                let byte = utf8[index]
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigit(byte >> 4))
                bytes.append(hexDigit(byte & 15))
                run = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<utf8.count]))
        }
    }

    /// The upper-case hex digit of a value below 16.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    /// Decodes `%XX` escapes (and `+` as a space when asked); nil for a broken escape or invalid UTF-8.
    public static func decode(_ text: Substring, plusIsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else if plusIsSpace && byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// A set of bytes as a 256-bit table, so that a lookup is a shift and a mask instead of a hash.
struct ByteTable: Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// The table of `bytes`.
    init(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            let bit = UInt64(1) << UInt64(byte & 63)
            switch byte >> 6 {
            case 0: words.0 |= bit
            case 1: words.1 |= bit
            case 2: words.2 |= bit
            default: words.3 |= bit
            }
        }
    }

    /// Whether `byte` is in the table.
    @inline(__always) func contains(_ byte: UInt8) -> Bool {
        let word: UInt64
        switch byte >> 6 {
        case 0: word = words.0
        case 1: word = words.1
        case 2: word = words.2
        default: word = words.3
        }
        return word & (UInt64(1) << UInt64(byte & 63)) != 0
    }
}
