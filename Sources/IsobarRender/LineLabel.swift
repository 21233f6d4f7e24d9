import IsobarCore

/// What a batch adds to each line of one place: where it came from in the input.
public struct LineLabel: Sendable, Equatable {
    /// The input line's number, from 1.
    public var inputLine: Int
    /// The `id` the input gave, echoed on every line.
    public var id: String?
    /// What the line asked for (a name or coordinates), shown as the place's query.
    public var query: String
    /// Other places the name could have meant.
    public var runnersUp: [Place] = []

    /// A label.
    public init(inputLine: Int, id: String?, query: String, runnersUp: [Place] = []) {
        self.inputLine = inputLine
        self.id = id
        self.query = query
        self.runnersUp = runnersUp
    }
}
