/// A parsed JSON document: its values as a `JSONTape`; every `JSONValue` read from it keeps it alive.
///
/// `JSONTapeParser` reads nearly every text in one pass; the texts it leaves (errors, a key named twice or written
/// with escapes, huge numbers, deep nesting) go to jansson, which words the error or whose tree becomes the tape.
public final class JSONDocument: Sendable {
    let tape: JSONTape

    /// Parses a complete JSON text (any value at the top level); with `rejectingDuplicateKeys`, an object naming a key twice is an error.
    public init(parsing bytes: [UInt8], rejectingDuplicateKeys: Bool = false) throws(JSONError) {
        if let tape = JSONTapeParser.tape(of: bytes) {
            self.tape = tape
        } else {
            tape = try JSONTape.jansson(bytes, rejectingDuplicateKeys: rejectingDuplicateKeys)
        }
    }

    /// Parses UTF-8 text.
    public convenience init(parsing text: String) throws(JSONError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// The top-level value.
    public var rootValue: JSONValue { JSONValue(document: self, node: 0, path: .root) }
}

/// One value inside a `JSONDocument`, with the path that led to it for error messages.
public struct JSONValue: Sendable {
    private let document: JSONDocument
    /// The value's node in the document's tape.
    private let node: Int
    /// The path of the container this value was reached from (the value's own path when `step` is nil): the path is
    /// built only when asked for, as nearly every value read is never named in an error.
    private let base: JSONPath
    /// This value's key or index in that container; nil for the root.
    private let step: JSONPath.Component?

    /// Where this value sits in the document, e.g. `$.hourly.time[3]`.
    public var path: JSONPath { step.map { base.appending($0) } ?? base }

    fileprivate init(document: JSONDocument, node: Int, path: JSONPath) {
        self.document = document
        self.node = node
        self.base = path
        self.step = nil
    }

    /// A member or element of the container at `container`: an object's or array's path is made now, once, for the
    /// lookups in it; a scalar's is left to be made if an error names it.
    private init(document: JSONDocument, node: Int, in container: JSONPath, at step: JSONPath.Component) {
        self.document = document
        self.node = node
        let kind = document.tape.nodes[node].kind
        if kind == .object || kind == .array {
            self.base = container.appending(step)
            self.step = nil
        } else {
            self.base = container
            self.step = step
        }
    }

    private var tape: JSONTape { document.tape }

    /// The JSON type of this value.
    public var kind: JSONKind {
        switch tape.nodes[node].kind {
        case .object: .object
        case .array: .array
        case .plainString, .escapedString: .string
        case .integer, .real: .number
        case .true, .false: .bool
        case .null: .null
        }
    }

    /// True for JSON `null`.
    public var isNull: Bool { kind == .null }

    private func mismatch(_ expected: String) -> JSONError {
        JSONError(.typeMismatch(expected: expected, found: kind.name), path: path)
    }

    // MARK: Objects

    /// The member named `key`, or nil when it is absent; fails when this is not an object.
    public func member(ifPresent key: String) throws(JSONError) -> JSONValue? {
        guard kind == .object else { throw mismatch("object") }
        let tape = tape
        var key = key
        let found = key.withUTF8 { wanted -> Int? in
            var index = node + 1
            for _ in 0..<tape.nodes[node].count {
                if tape.string(index, equals: wanted) { return index + 1 }
                index = tape.nodes[index + 1].next(after: index + 1)
            }
            return nil
        }
        guard let found else { return nil }
        return JSONValue(document: document, node: found, in: path, at: .key(key))
    }

    /// The member named `key`, absent or null giving nil.
    public func nonNullMember(_ key: String) throws(JSONError) -> JSONValue? {
        guard let value = try member(ifPresent: key), !value.isNull else { return nil }
        return value
    }

    /// The member named `key`; fails with its path when it is absent.
    public func member(_ key: String) throws(JSONError) -> JSONValue {
        guard let value = try member(ifPresent: key) else {
            throw JSONError(.missing, path: path.appending(key: key))
        }
        return value
    }

    /// All members in document order.
    public func members() throws(JSONError) -> [(key: String, value: JSONValue)] {
        guard kind == .object else { throw mismatch("object") }
        let tape = tape
        let count = tape.nodes[node].count
        var result: [(key: String, value: JSONValue)] = []
        result.reserveCapacity(count)
        let here = path
        var index = node + 1
        for _ in 0..<count {
            let key = tape.string(index)
            result.append((key, JSONValue(document: document, node: index + 1, in: here, at: .key(key))))
            index = tape.nodes[index + 1].next(after: index + 1)
        }
        return result
    }

    // MARK: Arrays

    /// The number of elements; fails when this is not an array.
    public func count() throws(JSONError) -> Int {
        guard kind == .array else { throw mismatch("array") }
        return tape.nodes[node].count
    }

    /// Calls `body` with each element's node index and position.
    private func forEachElement(_ body: (_ node: Int, _ position: Int) throws(JSONError) -> Void) throws(JSONError) {
        let size = try count()
        let tape = tape
        var index = node + 1
        for position in 0..<size {
            try body(index, position)
            index = tape.nodes[index].next(after: index)
        }
    }

    /// The elements of an array.
    public func elements() throws(JSONError) -> [JSONValue] {
        var result: [JSONValue] = []
        result.reserveCapacity(try count())
        let here = path
        try forEachElement { element, position throws(JSONError) in
            result.append(JSONValue(document: document, node: element, in: here, at: .index(position)))
        }
        return result
    }

    /// An array of numbers in which `null` stands for a missing value.
    public func numbersOrNulls() throws(JSONError) -> [Double?] {
        var result: [Double?] = []
        result.reserveCapacity(try count())
        let tape = tape
        try forEachElement { element, position throws(JSONError) in
            switch tape.nodes[element].kind {
            case .real: result.append(tape.real(element))
            case .integer: result.append(Double(tape.integer(element)))
            case .null: result.append(nil)
            default: throw JSONValue(document: document, node: element, path: path.appending(index: position)).mismatch("number or null")
            }
        }
        return result
    }

    /// An array of strings in which `null` stands for a missing value.
    public func stringsOrNulls() throws(JSONError) -> [String?] {
        var result: [String?] = []
        result.reserveCapacity(try count())
        let here = path
        try forEachElement { element, position throws(JSONError) in
            let value = JSONValue(document: document, node: element, in: here, at: .index(position))
            result.append(value.isNull ? nil : try value.string())
        }
        return result
    }

    /// Maps each element of an array of strings through `transform`, given the raw UTF-8 bytes without making a `String`;
    /// `null` elements give nil, and a nil from `transform` is an error at that element's path.
    public func mapStrings<T>(expected: String, _ transform: (UnsafeBufferPointer<UInt8>) -> T?) throws(JSONError) -> [T?] {
        var result: [T?] = []
        result.reserveCapacity(try count())
        let tape = tape
        try forEachElement { element, position throws(JSONError) in
            switch tape.nodes[element].kind {
            case .null:
                result.append(nil)
            case .plainString, .escapedString:
                guard let mapped = tape.withString(element, transform) else {
                    throw JSONError(.typeMismatch(expected: expected, found: "\"\(tape.string(element))\""), path: path.appending(index: position))
                }
                result.append(mapped)
            default:
                throw JSONValue(document: document, node: element, path: path.appending(index: position)).mismatch(expected)
            }
        }
        return result
    }

    // MARK: Scalars

    /// The value as a number (integer or real).
    public func double() throws(JSONError) -> Double {
        switch tape.nodes[node].kind {
        case .real: return tape.real(node)
        case .integer: return Double(tape.integer(node))
        default: throw mismatch("number")
        }
    }

    /// The value as a whole number; a real with no fraction (such as `3.0`) is accepted.
    public func int() throws(JSONError) -> Int {
        switch tape.nodes[node].kind {
        case .integer: return Int(tape.integer(node))
        case .real:
            let real = tape.real(node)
            guard real.rounded() == real, let whole = Int(exactly: real) else { throw mismatch("whole number") }
            return whole
        default: throw mismatch("whole number")
        }
    }

    /// The value as a string.
    public func string() throws(JSONError) -> String {
        guard kind == .string else { throw mismatch("string") }
        return tape.string(node)
    }

    /// The value as a boolean.
    public func bool() throws(JSONError) -> Bool {
        switch tape.nodes[node].kind {
        case .true: return true
        case .false: return false
        default: throw mismatch("boolean")
        }
    }

    // MARK: Conveniences for members

    /// The number at `key`; absent or null is an error.
    public func double(_ key: String) throws(JSONError) -> Double { try member(key).double() }

    /// The number at `key`, or nil when absent or null.
    public func optionalDouble(_ key: String) throws(JSONError) -> Double? { try nonNullMember(key)?.double() }

    /// The whole number at `key`; absent or null is an error.
    public func int(_ key: String) throws(JSONError) -> Int { try member(key).int() }

    /// The whole number at `key`, or nil when absent or null.
    public func optionalInt(_ key: String) throws(JSONError) -> Int? { try nonNullMember(key)?.int() }

    /// The string at `key`; absent or null is an error.
    public func string(_ key: String) throws(JSONError) -> String { try member(key).string() }

    /// The string at `key`, or nil when absent or null.
    public func optionalString(_ key: String) throws(JSONError) -> String? { try nonNullMember(key)?.string() }

    /// A number or a numeric string (such as OpenWeatherMap's `cod`), as a whole number.
    public func intOrNumericString() throws(JSONError) -> Int {
        if kind == .string {
            guard let number = Int(try string()) else { throw mismatch("whole number or numeric string") }
            return number
        }
        return try int()
    }
}

/// The type of a JSON value.
public enum JSONKind: Sendable {
    /// An object.
    case object
    /// An array.
    case array
    /// A string.
    case string
    /// A number.
    case number
    /// A boolean.
    case bool
    /// `null`.
    case null

    /// The name used in error messages.
    public var name: String {
        switch self {
        case .object: "object"
        case .array: "array"
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .null: "null"
        }
    }
}
