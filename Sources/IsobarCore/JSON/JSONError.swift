/// Where a value sits in a JSON document, rendered like `$.list[3].main.temp`.
public final class JSONPath: Sendable, CustomStringConvertible {
    /// One step down from a container: a member's key or an element's index.
    enum Component: Sendable {
        case key(String)
        case index(Int)
    }

    private let parent: JSONPath?
    private let component: Component?

    private init(parent: JSONPath?, component: Component?) {
        self.parent = parent
        self.component = component
    }

    /// The document itself.
    public static let root = JSONPath(parent: nil, component: nil)

    /// The path of a member of the object at this path.
    public func appending(key: String) -> JSONPath { JSONPath(parent: self, component: .key(key)) }

    /// The path of an element of the array at this path.
    public func appending(index: Int) -> JSONPath { JSONPath(parent: self, component: .index(index)) }

    /// The path one `component` down from this one.
    func appending(_ component: Component) -> JSONPath { JSONPath(parent: self, component: component) }

    /// The path as text, starting with `$`.
    public var description: String {
        var parts: [String] = []
        var node: JSONPath? = self
        while let current = node, let component = current.component {
            switch component {
            case .key(let key):
                let isLetter: (UInt8) -> Bool = { $0 == 95 || (65...90).contains($0) || (97...122).contains($0) }
                let plain = key.utf8.first.map(isLetter) == true && key.utf8.allSatisfy { isLetter($0) || (48...57).contains($0) }
                if plain {
                    parts.append(".\(key)")
                } else {
                    let escaped = key.flatMap { $0 == "\"" || $0 == "\\" ? ["\\", $0] : [$0] }
                    parts.append("[\"\(MessageText.oneLine(String(escaped)))\"]")
                }
            case .index(let index): parts.append("[\(index)]")
            }
            node = current.parent
        }
        return "$" + parts.reversed().joined()
    }
}

/// A JSON text that could not be parsed, or a value that is missing or of the wrong type.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Equatable {
        /// The text is not valid JSON.
        case syntax(String)
        /// A required member is absent.
        case missing
        /// The value has another JSON type than the one expected.
        case typeMismatch(expected: String, found: String)
    }

    /// What went wrong.
    public let code: Code
    /// The JSON path of the problem, e.g. `$.main.temp`.
    public let path: String

    /// Creates an error at a path.
    public init(_ code: Code, path: JSONPath) {
        self.code = code
        self.path = path.description
    }

    /// True when the text names a key twice in one object (a parse that rejects that; the path is the key's).
    public var isDuplicateKey: Bool {
        if case .syntax(let detail) = code { detail.hasPrefix("duplicate object key") } else { false }
    }

    /// A one-line explanation naming the path.
    public var description: String {
        switch code {
        case .syntax(let detail): path == "$" ? "invalid JSON: \(detail)" : "invalid JSON at \(path): \(detail)"
        case .missing: "missing value at \(path)"
        case .typeMismatch(let expected, let found): "expected \(expected) at \(path), found \(found)"
        }
    }
}
