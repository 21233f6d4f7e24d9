import IsobarCore
import IsobarRedis

/// One setting `isobar config` reads and changes: its key in the file, how a value typed on the command line becomes JSON,
/// and its value when the file sets none. Ranges and formats are checked again by `Configuration.parse` before a file is written.
struct ConfigSetting: Sendable {
    /// The values a setting takes.
    enum Kind: Sendable {
        /// One of these words.
        case choice([String])
        /// `true` or `false`.
        case flag
        /// A whole number in the range.
        case integer(ClosedRange<Int>)
        /// A finite number of at least the minimum.
        case number(minimum: Double)
        /// Any text.
        case text
        /// An environment variable's name.
        case variableName
        /// An e-mail address or http(s) URL.
        case contact
        /// `one`, `each`, or a number of at least 1.
        case familyWeight
    }

    /// The key in the file, e.g. `units`.
    let name: String
    /// The values it takes.
    let kind: Kind
    /// The value in effect when the file sets none; nil when unset means none.
    let defaultValue: JSONOutput?
    /// True when its value may hold a password, shown masked.
    var holdsPassword = false

    /// Settings at the top of the file (`contact` is set on every provider entry that takes one).
    static let topLevel: [ConfigSetting] = [
        ConfigSetting(name: "units", kind: .choice(UnitSystem.allCases.map(\.rawValue)), defaultValue: .string(UnitSystem.metric.rawValue)),
        ConfigSetting(name: "contact", kind: .contact, defaultValue: nil),
        ConfigSetting(name: "weights", kind: .choice(WeightsMode.allCases.map(\.rawValue)), defaultValue: .string(WeightsMode.equal.rawValue)),
        ConfigSetting(name: "bias_correction", kind: .flag, defaultValue: .bool(false)),
        ConfigSetting(name: "learn_on_first_use", kind: .choice(FirstUseLearning.allCases.map(\.rawValue)), defaultValue: .string(FirstUseLearning.ask.rawValue)),
        ConfigSetting(name: "family_weight", kind: .familyWeight, defaultValue: .string("one")),
        ConfigSetting(name: "archive_days", kind: .integer(0...3_650), defaultValue: .integer(60)),
        ConfigSetting(name: "cache_dir", kind: .text, defaultValue: nil),
        ConfigSetting(name: "shared_store", kind: .text, defaultValue: nil, holdsPassword: true),
    ]

    /// Settings of one provider entry, named `ID.SETTING`.
    static let provider: [ConfigSetting] = [
        ConfigSetting(name: "weight", kind: .number(minimum: 0), defaultValue: .integer(1)),
        ConfigSetting(name: "enabled", kind: .flag, defaultValue: .bool(true)),
        ConfigSetting(name: "api_key_env", kind: .variableName, defaultValue: nil),
        ConfigSetting(name: "contact", kind: .contact, defaultValue: nil),
        ConfigSetting(name: "base_url", kind: .text, defaultValue: nil),
        ConfigSetting(name: "forecast_days", kind: .integer(1...16), defaultValue: nil),
        ConfigSetting(name: "timeout_s", kind: .number(minimum: 0), defaultValue: nil),
    ]

    /// The top-level keys, for help.
    static var names: [String] { topLevel.map(\.name) }
    /// The provider settings, for help.
    static var providerNames: [String] { provider.map(\.name) }

    /// The JSON value of `text`, or a usage error saying what the setting takes.
    func value(_ text: String) throws(UsageError) -> JSONOutput {
        let shown = "'\(text.prefix(80))'"
        switch kind {
        case .choice(let words):
            guard words.contains(text) else { throw UsageError("\(name) takes \(words.joined(separator: ", ")), not \(shown)") }
            return .string(text)
        case .flag:
            guard let flag = ["true": true, "false": false][text] else { throw UsageError("\(name) takes true or false, not \(shown)") }
            return .bool(flag)
        case .integer(let range):
            guard let number = Int(text), range.contains(number) else {
                throw UsageError("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not \(shown)")
            }
            return .integer(number)
        case .number(let minimum):
            guard let number = Double(text), number.isFinite, number >= minimum else {
                throw UsageError("\(name) takes a number of at least \(JSONOutput.format(minimum)), not \(shown)")
            }
            return .number(number)
        case .text:
            guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw UsageError("\(name) takes text without control characters, not \(shown)")
            }
            return .string(text)
        case .variableName:
            guard SetupOptions.isVariableName(text) else { throw UsageError("\(name) takes a variable name (letters, digits and _), not \(shown)") }
            return .string(text)
        case .contact:
            guard let contact = SetupOptions.contact(text) else { throw UsageError("\(name) takes an e-mail address or an http(s) URL, not \(shown)") }
            return .string(contact)
        case .familyWeight:
            if text == "one" || text == "each" { return .string(text) }
            guard let number = Double(text), number.isFinite, number >= 1 else {
                throw UsageError("\(name) takes one, each or a number of at least 1, not \(shown)")
            }
            return .number(number)
        }
    }

    /// A value as shown: text as it is, anything else as JSON, a password masked.
    func shown(_ value: JSONOutput) -> String {
        guard case .string(let text) = value else { return value.serialized() }
        guard holdsPassword else { return text }
        return (try? RedisURL(parsing: text))?.masked ?? "(not a valid URL)"
    }

    /// A value as written in JSON lines: always text, as `config get` prints it (a password masked), so that `value` has one type.
    func json(_ value: JSONOutput) -> JSONOutput { .string(shown(value)) }
}
