/// Finds where a JSON text first names a key twice in one object, for an error that points at it.
enum DuplicateKeyLocator {
    private enum Frame {
        case object(path: JSONPath, keys: Set<[UInt8]>, lastKey: String, expectingKey: Bool)
        case array(path: JSONPath, index: Int)
    }

    /// The path of the first repeated key (scanning without recursion, so any depth is safe), or nil when there is none.
    static func path(in bytes: [UInt8]) -> JSONPath? {
        var stack: [Frame] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let start = index + 1
                index = start
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                let raw = Array(bytes[start..<min(index, bytes.count)])
                if case .object(let path, var keys, _, true)? = stack.last {
                    let key = String(decoding: raw, as: UTF8.self)
                    if !keys.insert(raw).inserted { return path.appending(key: key) }
                    stack[stack.count - 1] = .object(path: path, keys: keys, lastKey: key, expectingKey: false)
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let path: JSONPath = switch stack.last {
                case .object(let parent, _, let key, _)?: parent.appending(key: key)
                case .array(let parent, let position)?: parent.appending(index: position)
                case nil: .root
                }
                stack.append(byte == UInt8(ascii: "{") ? .object(path: path, keys: [], lastKey: "", expectingKey: true) : .array(path: path, index: 0))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
            case UInt8(ascii: ","):
                switch stack.last {
                case .object(let path, let keys, let key, _)?: stack[stack.count - 1] = .object(path: path, keys: keys, lastKey: key, expectingKey: true)
                case .array(let path, let position)?: stack[stack.count - 1] = .array(path: path, index: position + 1)
                case nil: break
                }
            default: break
            }
            index += 1
        }
        return nil
    }
}
