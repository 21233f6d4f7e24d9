/// A provider type given to `setup --key-env`, with the variable its key is read from.
public struct KeyVariable: Sendable, Equatable {
    /// The provider type, e.g. `openweathermap`.
    public var type: String
    /// The environment variable; nil for the type's usual one.
    public var variable: String?
}

/// `setup`: `--contact`, `--key-env`, `--write-key-values`, `--yes` and `--force`.
struct SetupOptions: OwnOptions {
    /// The options it reads.
    static let names = ["contact", "key-env", "write-key-values", "yes", "force"]
    /// `--contact`: the contact sent to providers whose terms ask for one.
    var contact: String?
    /// `--key-env`: provider types to add, each with the variable its key is read from (nil: its usual one).
    var keyVariables: [KeyVariable] = []
    /// `--write-key-values`: store the keys themselves, not the names of their variables.
    var writeKeyValues = false
    /// `--yes`: ask nothing.
    var yes = false
    /// `--force`: replace an existing file, keeping a copy.
    var force = false

    /// The defaults.
    init() {}

    /// Reads them from what was given.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        yes = parsed.has("yes")
        force = parsed.has("force")
        writeKeyValues = parsed.has("write-key-values")
        if let text = parsed["contact"] {
            guard let contact = Self.contact(text) else {
                throw UsageError("--contact takes an e-mail address or an http(s) URL without spaces, not '\(text.prefix(80))'")
            }
            self.contact = contact
        }
        if let text = parsed["key-env"] {
            for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
                let variable = parts.count == 2 ? parts[1] : nil
                guard !parts[0].isEmpty, variable.map(Self.isVariableName) ?? true else {
                    throw UsageError("--key-env takes TYPE or TYPE=VARIABLE pairs such as openweathermap=OWM_KEY (a variable is letters, digits and _), not '\(pair)'")
                }
                guard !keyVariables.contains(where: { $0.type == parts[0] }) else { throw UsageError("--key-env names '\(parts[0])' twice") }
                keyVariables.append(KeyVariable(type: parts[0], variable: variable))
            }
        }
        if writeKeyValues && keyVariables.isEmpty { throw UsageError("--write-key-values stores the keys of --key-env; give --key-env TYPE=VAR") }
    }

    /// A contact as given, when it is an e-mail address or an http(s) URL: printable, no spaces, at most 200 characters.
    static func contact(_ text: String) -> String? {
        let trimmed = text.trimmingSpaces()
        guard !trimmed.isEmpty, trimmed.count <= 200,
              trimmed.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }) else { return nil }
        let isURL = trimmed.hasPrefix("https://") || trimmed.hasPrefix("http://")
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        let isAddress = parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
        return isURL || isAddress ? trimmed : nil
    }

    /// True for an environment variable's name: a letter or `_`, then letters, digits and `_`.
    static func isVariableName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }
}
