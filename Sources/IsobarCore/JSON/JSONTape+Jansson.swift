import CJansson

extension JSONTape {
    /// The tape of `bytes` as jansson reads them, or jansson's error naming the line and column (a repeated key's error,
    /// with `rejectingDuplicateKeys`, names the key's path).
    static func jansson(_ bytes: [UInt8], rejectingDuplicateKeys: Bool) throws(JSONError) -> JSONTape {
        guard bytes.count <= maxBytes else { throw JSONError(.syntax("text of \(bytes.count) bytes is too long"), path: .root) }
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
        defer { isobar_json_release(parsed) }
        let (nodes, strings) = converted(parsed)
        return JSONTape(nodes: nodes, bytes: strings)
    }

    /// The nodes of a tree jansson parsed (the texts `JSONTapeParser` leaves to it), and its strings, decoded, one after another.
    private static func converted(_ root: UnsafeMutablePointer<json_t>) -> (nodes: [Node], strings: [UInt8]) {
        var tape = Conversion()
        // Depth first without recursion: each open container with its next member or element to visit.
        var pending: [(node: Int, container: UnsafeMutablePointer<json_t>, iterator: UnsafeMutableRawPointer?, index: Int)] = []
        tape.append(root, pending: &pending)
        while let last = pending.last {
            let container = last.container
            if tape.nodes[last.node].kind == .object {
                guard let iterator = last.iterator else {
                    tape.nodes[last.node].high = UInt32(tape.nodes.count)
                    pending.removeLast()
                    continue
                }
                pending[pending.count - 1].iterator = json_object_iter_next(container, iterator)
                tape.appendString(json_object_iter_key(iterator), length: json_object_iter_key_len(iterator))
                if let value = json_object_iter_value(iterator) { tape.append(value, pending: &pending) }
            } else {
                guard last.index < json_array_size(container), let element = json_array_get(container, last.index) else {
                    tape.nodes[last.node].high = UInt32(tape.nodes.count)
                    pending.removeLast()
                    continue
                }
                pending[pending.count - 1].index += 1
                tape.append(element, pending: &pending)
            }
        }
        return (tape.nodes, tape.bytes)
    }
}

/// A tape being built from jansson's tree.
private struct Conversion {
    typealias Node = JSONTape.Node
    var nodes: [Node] = []
    var bytes: [UInt8] = []

    /// Appends the node of `value`; a container is opened, its count set, its contents left to the caller's loop.
    mutating func append(_ value: UnsafeMutablePointer<json_t>,
                                 pending: inout [(node: Int, container: UnsafeMutablePointer<json_t>, iterator: UnsafeMutableRawPointer?, index: Int)]) {
        switch json_type(rawValue: UInt32(isobar_json_type(value))) {
        case JSON_OBJECT:
            pending.append((nodes.count, value, json_object_iter(value), 0))
            nodes.append(Node(kind: .object, low: UInt32(json_object_size(value)), high: 0))
        case JSON_ARRAY:
            pending.append((nodes.count, value, nil, 0))
            nodes.append(Node(kind: .array, low: UInt32(json_array_size(value)), high: 0))
        case JSON_STRING:
            appendString(json_string_value(value), length: json_string_length(value))
        case JSON_INTEGER:
            nodes.append(.integer(Int64(json_integer_value(value))))
        case JSON_REAL:
            nodes.append(.real(json_real_value(value)))
        case JSON_TRUE:
            nodes.append(.literal(.true))
        case JSON_FALSE:
            nodes.append(.literal(.false))
        default:
            nodes.append(.literal(.null))
        }
    }

    /// Appends a decoded string (which may hold NUL bytes) as a plain string over `bytes`.
    mutating func appendString(_ text: UnsafePointer<CChar>?, length: Int) {
        let start = bytes.count
        if let text, length > 0 {
            text.withMemoryRebound(to: UInt8.self, capacity: length) { bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
        }
        nodes.append(.string(.plainString, start: start, length: length))
    }
}
