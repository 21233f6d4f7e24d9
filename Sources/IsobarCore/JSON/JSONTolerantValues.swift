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
    public var shortText: String {
        guard kind == .string else { return kind.name }
        do {
            let text = try string()
            return "\"" + (text.count > 40 ? String(text.prefix(40)) + "…" : text) + "\""
        } catch {
            return kind.name
        }
    }
}

extension JSONValue {
    /// An array of numbers or nulls, reading any other element as null with one warning (its path, and how many such);
    /// nil with a warning when this is not an array at all.
    public func tolerantNumbersOrNulls(field: String, _ warnings: inout [ValueWarning]) -> [Double?]? {
        if let numbers = try? numbersOrNulls() { return numbers }
        guard let elements = try? elements() else {
            warnings.append(ValueWarning(field: field, path: path.description, value: shortText, reason: "not an array"))
            return nil
        }
        var numbers: [Double?] = []
        numbers.reserveCapacity(elements.count)
        var firstWrong: JSONValue?
        var wrongCount = 0
        for element in elements {
            switch element.kind {
            case .number: numbers.append(try? element.double())
            case .null: numbers.append(nil)
            default:
                numbers.append(nil)
                if firstWrong == nil { firstWrong = element }
                wrongCount += 1
            }
        }
        if let firstWrong {
            let reason = wrongCount == 1 ? "not a number" : "not a number (\(wrongCount) values of this field)"
            warnings.append(ValueWarning(field: field, path: firstWrong.path.description, value: firstWrong.shortText, reason: reason))
        }
        return numbers
    }
}
