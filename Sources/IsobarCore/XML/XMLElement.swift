/// One element of an XML document: its name as written (a namespace prefix included), its attributes, its child elements
/// and its character data (CDATA sections included, entities resolved, comments left out).
public struct XMLElement: Sendable, Equatable {
    /// The name as written, e.g. `cap:alert`.
    public var name: String
    /// The attributes in document order, names as written.
    public var attributes: [XMLAttribute]
    /// The child elements in document order.
    public var children: [XMLElement]
    /// The character data directly inside the element, in document order.
    public var text: String

    /// Creates an element.
    public init(name: String, attributes: [XMLAttribute] = [], children: [XMLElement] = [], text: String = "") {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// The name without its namespace prefix (`alert` for `cap:alert`).
    public var localName: String { XMLName.local(name) }

    /// The first child whose local name is `localName`.
    public func child(_ localName: String) -> XMLElement? { children.first { $0.localName == localName } }

    /// Every child whose local name is `localName`.
    public func children(_ localName: String) -> [XMLElement] { children.filter { $0.localName == localName } }

    /// The text of the first child named `localName`, without the white space around it; nil when there is no such child
    /// or its text is blank.
    public func childText(_ localName: String) -> String? {
        guard let text = child(localName)?.text.trimmingXMLSpace(), !text.isEmpty else { return nil }
        return text
    }

    /// The value of the attribute whose local name is `localName`.
    public func attribute(_ localName: String) -> String? { attributes.first { XMLName.local($0.name) == localName }?.value }
}

/// One attribute of an element.
public struct XMLAttribute: Sendable, Equatable {
    /// The name as written, e.g. `xmlns:cap`.
    public var name: String
    /// The value, entities resolved.
    public var value: String

    /// Creates an attribute.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Qualified names: a prefix, a colon, a local name.
enum XMLName {
    /// The part after the prefix's colon, or the whole name.
    static func local(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }
}

extension String {
    /// The text without XML's white space (space, tab, line feed, carriage return) at either end.
    public func trimmingXMLSpace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
