import CJansson

/// A parsed JSON document; it owns the jansson tree, and every `JSONValue` read from it keeps it alive.
public final class JSONDocument: @unchecked Sendable {
    // Safety: the tree is never mutated after parsing, and jansson reads are thread-safe.
    fileprivate let root: UnsafeMutablePointer<json_t>

    /// Parses a complete JSON text (any value at the top level); with `rejectingDuplicateKeys`, an object naming a key twice is an error.
    public init(parsing bytes: [UInt8], rejectingDuplicateKeys: Bool = false) throws(JSONError) {
        var error = json_error_t()
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    rejectingDuplicateKeys ? isobar_json_parse_rejecting_duplicates($0, buffer.count, &error)
                                           : isobar_json_parse($0, buffer.count, &error)
                }
            }
        }
        guard let parsed else {
            if bytes.isEmpty { throw JSONError(.syntax("empty body"), path: .root) }
            let text = MessageText.oneLine(withUnsafePointer(to: &error) { String(cString: isobar_json_error_text($0)) })
            let path = rejectingDuplicateKeys && text.contains("duplicate") ? DuplicateKeyLocator.path(in: bytes) ?? .root : .root
            throw JSONError(.syntax("\(text) (line \(error.line), column \(error.column))"), path: path)
        }
        root = parsed
    }

    /// Parses UTF-8 text.
    public convenience init(parsing text: String) throws(JSONError) {
        try self.init(parsing: Array(text.utf8))
    }

    deinit { isobar_json_release(root) }

    /// The top-level value.
    public var rootValue: JSONValue { JSONValue(document: self, node: root, path: .root) }
}

/// One value inside a `JSONDocument`, with the path that led to it for error messages.
public struct JSONValue: @unchecked Sendable {
    // Safety: see `JSONDocument`; `document` keeps `node` alive.
    private let document: JSONDocument
    private let node: UnsafeMutablePointer<json_t>
    /// The path of the container this value was reached from (the value's own path when `step` is nil): the path is
    /// built only when asked for, as nearly every value read is never named in an error.
    private let base: JSONPath
    /// This value's key or index in that container; nil for the root.
    private let step: JSONPath.Component?

    /// Where this value sits in the document, e.g. `$.hourly.time[3]`.
    public var path: JSONPath { step.map { base.appending($0) } ?? base }

    fileprivate init(document: JSONDocument, node: UnsafeMutablePointer<json_t>, path: JSONPath) {
        self.document = document
        self.node = node
        self.base = path
        self.step = nil
    }

    /// A member or element of the container at `container`: an object's or array's path is made now, once, for the
    /// lookups in it; a scalar's is left to be made if an error names it.
    fileprivate init(document: JSONDocument, node: UnsafeMutablePointer<json_t>, in container: JSONPath, at step: JSONPath.Component) {
        self.document = document
        self.node = node
        let type = json_type(rawValue: UInt32(isobar_json_type(node)))
        if type == JSON_OBJECT || type == JSON_ARRAY {
            self.base = container.appending(step)
            self.step = nil
        } else {
            self.base = container
            self.step = step
        }
    }

    /// The JSON type of this value.
    public var kind: JSONKind {
        switch json_type(rawValue: UInt32(isobar_json_type(node))) {
        case JSON_OBJECT: .object
        case JSON_ARRAY: .array
        case JSON_STRING: .string
        case JSON_INTEGER, JSON_REAL: .number
        case JSON_TRUE, JSON_FALSE: .bool
        default: .null
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
        // By length and bytes: a C string of the key would be a copy on the heap for every lookup.
        var key = key
        guard let child = key.withUTF8({ json_object_getn(node, UnsafeRawPointer($0.baseAddress)?.assumingMemoryBound(to: CChar.self), $0.count) })
        else { return nil }
        return JSONValue(document: document, node: child, in: path, at: .key(key))
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
        var result: [(key: String, value: JSONValue)] = []
        result.reserveCapacity(json_object_size(node))
        let here = path
        var iterator = json_object_iter(node)
        while let current = iterator {
            let key = String(cString: json_object_iter_key(current))
            if let child = json_object_iter_value(current) {
                result.append((key, JSONValue(document: document, node: child, in: here, at: .key(key))))
            }
            iterator = json_object_iter_next(node, current)
        }
        return result
    }

    // MARK: Arrays

    /// The number of elements; fails when this is not an array.
    public func count() throws(JSONError) -> Int {
        guard kind == .array else { throw mismatch("array") }
        return json_array_size(node)
    }

    /// The elements of an array.
    public func elements() throws(JSONError) -> [JSONValue] {
        let size = try count()
        var result: [JSONValue] = []
        result.reserveCapacity(size)
        let here = path
        for index in 0..<size {
            result.append(JSONValue(document: document, node: json_array_get(node, index), in: here, at: .index(index)))
        }
        return result
    }

    /// An array of numbers in which `null` stands for a missing value.
    public func numbersOrNulls() throws(JSONError) -> [Double?] {
        let size = try count()
        var result: [Double?] = []
        result.reserveCapacity(size)
        for index in 0..<size {
            let element = json_array_get(node, index)!
            switch json_type(rawValue: UInt32(isobar_json_type(element))) {
            case JSON_REAL: result.append(json_real_value(element))
            case JSON_INTEGER: result.append(Double(json_integer_value(element)))
            case JSON_NULL: result.append(nil)
            default:
                throw JSONValue(document: document, node: element, path: path.appending(index: index)).mismatch("number or null")
            }
        }
        return result
    }

    /// An array of strings in which `null` stands for a missing value.
    public func stringsOrNulls() throws(JSONError) -> [String?] {
        let size = try count()
        var result: [String?] = []
        result.reserveCapacity(size)
        let here = path
        for index in 0..<size {
            let element = JSONValue(document: document, node: json_array_get(node, index)!, in: here, at: .index(index))
            result.append(element.isNull ? nil : try element.string())
        }
        return result
    }

    /// Maps each element of an array of strings through `transform`, given the raw UTF-8 bytes without making a `String`;
    /// `null` elements give nil, and a nil from `transform` is an error at that element's path.
    public func mapStrings<T>(expected: String, _ transform: (UnsafeBufferPointer<UInt8>) -> T?) throws(JSONError) -> [T?] {
        let size = try count()
        var result: [T?] = []
        result.reserveCapacity(size)
        for index in 0..<size {
            let element = json_array_get(node, index)!
            let type = json_type(rawValue: UInt32(isobar_json_type(element)))
            if type == JSON_NULL {
                result.append(nil)
                continue
            }
            guard type == JSON_STRING, let text = json_string_value(element) else {
                throw JSONValue(document: document, node: element, path: path.appending(index: index)).mismatch(expected)
            }
            let mapped = text.withMemoryRebound(to: UInt8.self, capacity: json_string_length(element)) {
                transform(UnsafeBufferPointer(start: $0, count: json_string_length(element)))
            }
            guard let mapped else {
                throw JSONError(.typeMismatch(expected: expected, found: "\"\(String(cString: text))\""), path: path.appending(index: index))
            }
            result.append(mapped)
        }
        return result
    }

    // MARK: Scalars

    /// The value as a number (integer or real).
    public func double() throws(JSONError) -> Double {
        switch json_type(rawValue: UInt32(isobar_json_type(node))) {
        case JSON_REAL: return json_real_value(node)
        case JSON_INTEGER: return Double(json_integer_value(node))
        default: throw mismatch("number")
        }
    }

    /// The value as a whole number; a real with no fraction (such as `3.0`) is accepted.
    public func int() throws(JSONError) -> Int {
        switch json_type(rawValue: UInt32(isobar_json_type(node))) {
        case JSON_INTEGER: return Int(json_integer_value(node))
        case JSON_REAL:
            let real = json_real_value(node)
            guard real.rounded() == real, let whole = Int(exactly: real) else { throw mismatch("whole number") }
            return whole
        default: throw mismatch("whole number")
        }
    }

    /// The value as a string.
    public func string() throws(JSONError) -> String {
        guard kind == .string, let text = json_string_value(node) else { throw mismatch("string") }
        let length = json_string_length(node)
        return text.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// The value as a boolean.
    public func bool() throws(JSONError) -> Bool {
        switch json_type(rawValue: UInt32(isobar_json_type(node))) {
        case JSON_TRUE: return true
        case JSON_FALSE: return false
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
