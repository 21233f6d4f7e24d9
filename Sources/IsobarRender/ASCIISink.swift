/// What a command writes on standard output, which decides how it is put in ASCII under a locale that is not UTF-8.
public enum OutputText: Sendable, Equatable {
    /// Tables, sentences, charts and help: folded to ASCII (`ASCIIText.fold`).
    case people
    /// JSON lines: characters outside ASCII written as `\u` escapes, the values unchanged.
    case jsonLines
    /// CSV: passed on as it is (UTF-8), since CSV has no escapes and its values must not change.
    case csv
}

/// A sink that passes text on in ASCII: folded for people, or escaped as JSON.
public struct ASCIISink: OutputSink, Sendable {
    /// How text is put in ASCII.
    public enum Conversion: Sendable {
        /// `ASCIIText.fold`: for people.
        case fold
        /// `ASCIIText.escapingJSON`: for JSON lines.
        case escapeJSON
    }

    /// Where the converted text goes.
    public let base: any OutputSink
    /// How it is converted.
    public let conversion: Conversion

    /// Creates an `ASCIISink` from its parts.
    public init(base: any OutputSink, conversion: Conversion) {
        self.base = base
        self.conversion = conversion
    }

    /// Writes the text converted.
    public func write(_ text: String) {
        switch conversion {
        case .fold: base.write(ASCIIText.fold(text))
        case .escapeJSON: base.write(ASCIIText.escapingJSON(text))
        }
    }

    /// Writes the bytes converted (as they are when they are ASCII already).
    public func write(utf8 bytes: [UInt8]) {
        if bytes.allSatisfy({ $0 < 0x80 }) {
            base.write(utf8: bytes)
        } else {
            write(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Flushes the base.
    public func flush() { base.flush() }
    /// The base's answer.
    public var isTerminal: Bool { base.isTerminal }
    /// The base's width.
    public var columns: Int? { base.columns }
    /// The base's answer.
    public var isClosed: Bool { base.isClosed }
    /// The base's terminal.
    public var terminalDevice: UInt64? { base.terminalDevice }
}
