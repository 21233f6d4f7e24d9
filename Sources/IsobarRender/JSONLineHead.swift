import IsobarCore

extension JSONOutputBuffer {
    /// `{"schema":1,"type":…` and, in a batch, the input line and id: how every JSON line begins (the object is left open).
    public mutating func beginLine(_ type: String, label: LineLabel?) {
        beginObject()
        key("schema")
        integer(JSONLinesRenderer.schemaVersion)
        key("type")
        string(type)
        guard let label else { return }
        key("input_line")
        integer(label.inputLine)
        if let id = label.id {
            key("id")
            string(id)
        }
    }

    /// The `place` member of a line: the place, its zone and offset, the query it was found by, and the runners-up.
    public mutating func placeMember(_ place: Place, query: String, runnersUp: [Place]) {
        key("place")
        beginObject()
        placeMembers(place)
        key("timezone")
        string(place.timeZoneIdentifier)
        key("utc_offset_seconds")
        integer(place.utcOffsetSeconds)
        key("query")
        string(query)
        key("runners_up")
        beginArray()
        for other in runnersUp {
            beginObject()
            placeMembers(other)
            endObject()
        }
        endArray()
        endObject()
    }
}
