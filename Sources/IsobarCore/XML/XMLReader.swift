/// A small reader of XML 1.0 documents in UTF-8, enough for CAP and RSS: elements, attributes, character data, the five
/// predefined entities and numeric character references, CDATA sections, comments and processing instructions (skipped),
/// and namespace prefixes kept as part of names. Document type declarations are refused (no entity of a document's own is
/// ever expanded). It reads without recursion, so no input can exhaust the stack; anything else is an `XMLError`.
public enum XMLReader {
    /// The deepest nesting of elements read.
    public static let maximumDepth = 256

    /// The root element of the document in `bytes`.
    public static func parse(_ bytes: [UInt8]) throws(XMLError) -> XMLElement {
        var scanner = XMLScanner(bytes)
        return try scanner.document()
    }

    /// The root element of the document `text`.
    public static func parse(_ text: String) throws(XMLError) -> XMLElement { try parse(Array(text.utf8)) }
}

/// The reader's state: the document's bytes (line ends made `\n`), a position, and the open elements.
struct XMLScanner {
    private let bytes: [UInt8]
    private var index = 0
    private var stack: [XMLElement] = []
    private var root: XMLElement?

    init(_ input: [UInt8]) {
        var normalised: [UInt8] = []
        normalised.reserveCapacity(input.count)
        var position = input.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while position < input.count {
            let byte = input[position]
            position += 1
            if byte == 0x0D {
                normalised.append(0x0A)
                if position < input.count && input[position] == 0x0A { position += 1 }
            } else {
                normalised.append(byte)
            }
        }
        bytes = normalised
    }

    /// Reads the whole document and returns its root element.
    mutating func document() throws(XMLError) -> XMLElement {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw XMLError("the document is not UTF-8 text", line: 1) }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                let start = index
                let text = try characterData()
                if stack.isEmpty {
                    guard text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" }) else { throw error("text outside the root element", at: start) }
                } else {
                    stack[stack.count - 1].text += text
                }
                continue
            }
            if starts(with: "<?") {
                try processingInstruction()
            } else if starts(with: "<!--") {
                try skip(past: "-->", opening: 4, what: "a comment")
            } else if starts(with: "<![CDATA[") {
                guard !stack.isEmpty else { throw error("a CDATA section outside the root element", at: index) }
                let text = try cdata()
                stack[stack.count - 1].text += text
            } else if starts(with: "<!") {
                throw error("declarations such as <!DOCTYPE are not read", at: index)
            } else if starts(with: "</") {
                let start = index
                let name = try endTag()
                guard let open = stack.popLast() else { throw error("</\(name)> closes no element", at: start) }
                guard open.name == name else { throw error("</\(name)> closes <\(open.name)>", at: start) }
                attach(open)
            } else {
                let start = index
                let (element, isEmpty) = try startTag()
                guard root == nil || !stack.isEmpty else { throw error("a second root element <\(element.name)>", at: start) }
                if isEmpty {
                    attach(element)
                } else {
                    guard stack.count < XMLReader.maximumDepth else {
                        throw error("elements nested more than \(XMLReader.maximumDepth) deep", at: start)
                    }
                    stack.append(element)
                }
            }
        }
        if let open = stack.last { throw error("<\(open.name)> is never closed", at: bytes.count) }
        guard let root else { throw error("there is no root element", at: bytes.count) }
        return root
    }

    private mutating func attach(_ element: XMLElement) {
        if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
    }

    // MARK: Markup

    /// `<name attr="value" …>` or `<name …/>`; the element, and whether it was empty.
    private mutating func startTag() throws(XMLError) -> (XMLElement, Bool) {
        index += 1
        var element = XMLElement(name: try name(after: "<"))
        while true {
            let hadSpace = skipSpace()
            guard index < bytes.count else { throw error("<\(element.name) is never finished", at: index) }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return (element, false)
            }
            if starts(with: "/>") {
                index += 2
                return (element, true)
            }
            guard hadSpace else { throw error("an unexpected character in <\(element.name)>", at: index) }
            let attributeStart = index
            let attributeName = try name(after: "<\(element.name)")
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw error("the attribute \(attributeName) of <\(element.name)> has no value", at: index)
            }
            index += 1
            skipSpace()
            let value = try quoted(attributeName)
            guard !element.attributes.contains(where: { $0.name == attributeName }) else {
                throw error("<\(element.name)> has the attribute \(attributeName) twice", at: attributeStart)
            }
            element.attributes.append(XMLAttribute(name: attributeName, value: value))
        }
    }

    /// `</name>`; the name.
    private mutating func endTag() throws(XMLError) -> String {
        index += 2
        let found = try name(after: "</")
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw error("</\(found) is never finished", at: index) }
        index += 1
        return found
    }

    /// `<?target …?>`; an XML declaration must name UTF-8 (or US-ASCII) when it names an encoding.
    private mutating func processingInstruction() throws(XMLError) {
        let start = index
        try skip(past: "?>", opening: 2, what: "a processing instruction")
        let instruction = Array(bytes[start..<index])
        guard instruction.count > 6, instruction[0..<5].elementsEqual("<?xml".utf8),
              [0x20, 0x09, 0x0A].contains(instruction[5]) else { return }
        guard let encoding = Self.pseudoAttribute("encoding", in: instruction) else { return }
        guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(encoding) else {
            throw error("the encoding \(encoding) is not read (UTF-8 only)", at: start)
        }
    }

    /// The value of `name="…"` (or `'…'`) in an XML declaration, lower case; nil when it is not there.
    private static func pseudoAttribute(_ name: String, in declaration: [UInt8]) -> String? {
        let key = Array(name.utf8)
        var position = 0
        while position + key.count < declaration.count {
            guard declaration[position..<(position + key.count)].elementsEqual(key) else {
                position += 1
                continue
            }
            var cursor = position + key.count
            while cursor < declaration.count, [0x20, 0x09, 0x0A, UInt8(ascii: "=")].contains(declaration[cursor]) { cursor += 1 }
            guard cursor < declaration.count, declaration[cursor] == UInt8(ascii: "\"") || declaration[cursor] == UInt8(ascii: "'") else { return nil }
            let quote = declaration[cursor]
            let valueStart = cursor + 1
            var valueEnd = valueStart
            while valueEnd < declaration.count, declaration[valueEnd] != quote { valueEnd += 1 }
            return String(decoding: declaration[valueStart..<valueEnd], as: UTF8.self).lowercased()
        }
        return nil
    }

    /// `<![CDATA[…]]>`; its text as written.
    private mutating func cdata() throws(XMLError) -> String {
        let start = index + 9
        try skip(past: "]]>", opening: 9, what: "a CDATA section")
        return String(decoding: bytes[start..<(index - 3)], as: UTF8.self)
    }

    /// Moves past `terminator`, from `opening` bytes on; an error naming `what` when it never comes.
    private mutating func skip(past terminator: String, opening: Int, what: String) throws(XMLError) {
        let start = index
        let end = Array(terminator.utf8)
        var position = index + opening
        while position + end.count <= bytes.count {
            if bytes[position] == end[0] && bytes[position..<(position + end.count)].elementsEqual(end) {
                index = position + end.count
                return
            }
            position += 1
        }
        throw error("\(what) is never closed", at: start)
    }

    // MARK: Names, values, text

    /// A name: letters, digits, `_`, `:`, `-`, `.` and any non-ASCII character, not starting with a digit, `-` or `.`.
    private mutating func name(after opening: String) throws(XMLError) -> String {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        guard index > start, !Self.isDigitOrPunctuation(bytes[start]) else { throw error("a name was expected after \(opening)", at: start) }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// A quoted attribute value, references resolved.
    private mutating func quoted(_ attribute: String) throws(XMLError) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw error("the value of \(attribute) is not quoted", at: index)
        }
        let quote = bytes[index]
        let start = index
        index += 1
        var value: [UInt8] = []
        while index < bytes.count, bytes[index] != quote {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") { throw error("a '<' in the value of \(attribute)", at: index) }
            if byte == UInt8(ascii: "&") {
                value += try reference()
            } else {
                value.append(byte == 0x0A || byte == 0x09 ? 0x20 : byte)
                index += 1
            }
        }
        guard index < bytes.count else { throw error("the value of \(attribute) is never closed", at: start) }
        index += 1
        return String(decoding: value, as: UTF8.self)
    }

    /// Character data up to the next `<`, references resolved.
    private mutating func characterData() throws(XMLError) -> String {
        var text: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
            if bytes[index] == UInt8(ascii: "&") {
                text += try reference()
            } else {
                text.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#NNN;` or `&#xHH;`, as UTF-8; anything else is an error.
    private mutating func reference() throws(XMLError) -> [UInt8] {
        let start = index
        var end = index + 1
        while end < bytes.count, end - start <= 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else { throw error("a '&' that starts no reference (write &amp;)", at: start) }
        let body = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
        index = end + 1
        switch body {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default: break
        }
        guard body.hasPrefix("#") else { throw error("&\(body); is not one of XML's five entities", at: start) }
        let digits = body.dropFirst()
        let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        guard let value, let scalar = Unicode.Scalar(value), Self.isCharacter(value) else {
            throw error("&\(body); is not a character XML allows", at: start)
        }
        return Array(String(Character(scalar)).utf8)
    }

    // MARK: Helpers

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A { index += 1 }
        return index > start
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return text.withUTF8Buffer { bytes[index..<(index + count)].elementsEqual($0) }
    }

    private func error(_ message: String, at position: Int) -> XMLError {
        XMLError(message, line: 1 + bytes[0..<min(position, bytes.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) })
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func isDigitOrPunctuation(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// XML 1.0's `Char`: tab, line feed, carriage return, and everything from space on but surrogates, U+FFFE and U+FFFF.
    private static func isCharacter(_ value: UInt32) -> Bool {
        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
            || (0x10000...0x10FFFF).contains(value)
    }
}
