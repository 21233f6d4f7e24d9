extension JSONValue {
    /// The number at `key` (absent or null: nil); a value of another type is nil too, with a warning naming its path.
    public func tolerantDouble(_ key: String, _ warnings: inout [ValueWarning]) throws(JSONError) -> Double? {
        guard let value = try nonNullMember(key) else { return nil }
        guard value.kind == .number else {
            warnings.append(ValueWarning(field: key, path: value.path.description, value: value.shortText, reason: "not a number"))
            return nil
        }
        return try value.double()
    }

    /// The value as short text for a message: a string quoted and cut to 40 characters, anything else by its JSON type.
    var shortText: String {
        guard kind == .string else { return kind.name }
        do {
            let text = try string()
            return "\"" + (text.count > 40 ? String(text.prefix(40)) + "…" : text) + "\""
        } catch {
            return kind.name
        }
    }
}
