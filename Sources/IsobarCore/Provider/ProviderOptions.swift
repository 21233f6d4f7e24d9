/// A provider type's own options (an exec program's `command`, Open-Meteo's `models`…), read from its configuration entry by
/// its factory; only that type's adapter looks inside.
public struct ProviderOptions: Sendable {
    /// The parsed value, of a type only the adapter knows.
    private let value: (any Sendable)?
    /// What the options add to the key its answers are cached under, when they change the answers (`command=…`); nil otherwise.
    public let endpoint: String?
    /// Lines `providers list` shows about them, e.g. `program: python3 nws.py`.
    public let notes: [String]
    /// The sources they name within the entry, each answering as a source of its own (Open-Meteo's models): output prints
    /// each as `ENTRY/MEMBER`, and commands accept those ids.
    public let members: [String]
    /// The contact the entry gives, for types whose terms ask for one (see `ProviderFactory.contactVariable`).
    public let contact: String?

    /// Options holding `value`.
    public init(_ value: some Sendable, endpoint: String? = nil, notes: [String] = [], members: [String] = [], contact: String? = nil) {
        self.value = value
        self.endpoint = endpoint
        self.notes = notes
        self.members = members
        self.contact = contact
    }

    /// No options of its own.
    public init() {
        value = nil
        endpoint = nil
        notes = []
        members = []
        contact = nil
    }

    /// The value, when it is of type `type`.
    public func value<Value: Sendable>(as type: Value.Type) -> Value? { value as? Value }
}

/// A configuration entry as a factory reads its own options from it.
public struct OptionSource: Sendable {
    /// The entry (its own keys and the common ones).
    public let entry: JSONValue
    /// The directory of the configuration file, for relative paths.
    public let directory: String

    /// Creates a source.
    public init(entry: JSONValue, directory: String) {
        self.entry = entry
        self.directory = directory
    }
}

/// An option a factory cannot use: one line naming its JSON path (the configuration's file name is added by the caller).
public struct OptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `$.providers[0].models lists a model twice`.
    public let message: String

    /// Creates the error.
    public init(_ message: String) { self.message = MessageText.oneLine(message) }

    /// The message.
    public var description: String { message }

    /// Runs `body`, turning a JSON type or member problem into an option error naming its path.
    public static func reading<Value>(_ body: () throws -> Value) throws(OptionError) -> Value {
        do {
            return try body()
        } catch let error as OptionError {
            throw error
        } catch let error as JSONError {
            throw OptionError("\(error)")
        } catch {
            throw OptionError("unreadable options")
        }
    }
}
