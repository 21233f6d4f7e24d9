import IsobarCore

/// A configuration file's members, changed one provider entry at a time and written back with everything else kept in
/// its order (numbers in their shortest form, one provider entry a line).
struct ConfigurationText: Sendable {
    /// The top-level members other than `providers`, in the file's order, and where `providers` stood among them.
    private var members: [(key: String, value: JSONOutput)]
    /// The provider entries, each its members in order.
    private(set) var providers: [[(key: String, value: JSONOutput)]]

    /// Reads the text of a configuration file that `Configuration.parse` accepts.
    init(parsing bytes: [UInt8]) throws(JSONError) {
        let root = try JSONDocument(parsing: bytes).rootValue
        members = try Self.members(root)
        providers = []
        for entry in try root.member(ifPresent: "providers")?.elements() ?? [] { providers.append(try Self.members(entry)) }
        if !members.contains(where: { $0.key == "providers" }) { members.append(("providers", .array([]))) }
    }

    /// The index of the entry whose id (or, without one, type) is `id`.
    func entry(_ id: String) -> Int? {
        providers.firstIndex { entry in
            let named = entry.first { $0.key == "id" } ?? entry.first { $0.key == "type" }
            return named?.value == .string(id)
        }
    }

    /// False when the entry says `"enabled": false`.
    func isEnabled(_ index: Int) -> Bool {
        providers[index].first { $0.key == "enabled" }?.value != .bool(false)
    }

    /// Turns the entry on (dropping its `enabled` member, true by default) or off (`"enabled": false`).
    mutating func setEnabled(_ enabled: Bool, _ index: Int) {
        providers[index].removeAll { $0.key == "enabled" }
        if !enabled { providers[index].append(("enabled", .bool(false))) }
    }

    /// The value of top-level member `key`, when the file has one (`providers` excepted).
    func member(_ key: String) -> JSONOutput? { members.first { $0.key == key && key != "providers" }?.value }

    /// Sets top-level member `key` where it stands, or after the others when the file has none.
    mutating func setMember(_ key: String, _ value: JSONOutput) {
        if let index = members.firstIndex(where: { $0.key == key }) { members[index].value = value } else { members.append((key, value)) }
    }

    /// The value of member `key` of the entry at `index`, when it has one.
    func member(_ key: String, ofEntry index: Int) -> JSONOutput? { providers[index].first { $0.key == key }?.value }

    /// Sets member `key` of the entry at `index` where it stands, or after its others.
    mutating func setMember(_ key: String, _ value: JSONOutput, ofEntry index: Int) {
        if let position = providers[index].firstIndex(where: { $0.key == key }) {
            providers[index][position].value = value
        } else {
            providers[index].append((key, value))
        }
    }

    /// Adds an entry after the others.
    mutating func append(_ entry: [(key: String, value: JSONOutput)]) { providers.append(entry) }

    /// The file's new text: one top-level member a line, one provider entry a line.
    func rendered() -> [UInt8] {
        let lines = members.map { member -> String in
            let key = "  " + JSONOutput.string(member.key).serialized() + ": "
            guard member.key == "providers" else { return key + member.value.serialized() }
            guard !providers.isEmpty else { return key + "[]" }
            let entries = providers.map { "    " + JSONOutput.object($0.map { ($0.key, $0.value) }).serialized() }
            return key + "[\n" + entries.joined(separator: ",\n") + "\n  ]"
        }
        return Array(("{\n" + lines.joined(separator: ",\n") + "\n}\n").utf8)
    }

    /// An object's members rebuilt for output.
    private static func members(_ object: JSONValue) throws(JSONError) -> [(key: String, value: JSONOutput)] {
        var members: [(key: String, value: JSONOutput)] = []
        for (key, value) in try object.members() { members.append((key, try output(value))) }
        return members
    }

    /// A parsed value rebuilt for output.
    private static func output(_ value: JSONValue) throws(JSONError) -> JSONOutput {
        switch value.kind {
        case .object: return .object(try members(value).map { ($0.key, $0.value) })
        case .array:
            var elements: [JSONOutput] = []
            for element in try value.elements() { elements.append(try output(element)) }
            return .array(elements)
        case .string: return .string(try value.string())
        case .number: return .number(try value.double())
        case .bool: return .bool(try value.bool())
        case .null: return .null
        }
    }
}
