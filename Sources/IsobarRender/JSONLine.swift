import IsobarCore

/// One JSON line of a command that is not a weather view (a city added, a cache cleared): the schema version, the line's
/// type, then its members.
public enum JSONLine {
    /// The line of `type` with `members`, ended by a newline.
    public static func text(_ type: String, _ members: [(String, JSONOutput)]) -> String {
        JSONOutput.object([("schema", .integer(JSONLinesRenderer.schemaVersion)), ("type", .string(type))] + members).serialized() + "\n"
    }
}
