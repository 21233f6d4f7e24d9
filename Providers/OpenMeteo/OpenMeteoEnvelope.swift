import IsobarCore

/// What every Open-Meteo answer (forecast, air quality, previous runs) starts with: `{"error": true, "reason": …}` for a
/// refused request, else the UTC offset and zone of the place it answers for.
enum OpenMeteoEnvelope {
    /// Throws the refusal `root` is, naming `provider` and the server's `reason`; nothing when it is an answer.
    static func checkRefusal(_ root: JSONValue, provider: String, reason: String?) throws {
        if try root.nonNullMember("error")?.bool() == true {
            throw ProviderError(.badRequest, "\(provider) rejected the request: \(reason ?? "no reason given")")
        }
    }

    /// The answer's UTC offset (an error naming its path beyond ±18 h) and zone (nil for `GMT`, which Open-Meteo sends
    /// when it was asked for none).
    static func zone(_ root: JSONValue) throws -> (offset: Int, identifier: String?) {
        let offsetValue = try root.member("utc_offset_seconds")
        let offset = try offsetValue.int()
        guard PlausibleRange.utcOffsetSeconds.contains(offset) else {
            throw JSONError(.typeMismatch(expected: "an offset within ±18 h", found: String(offset)), path: offsetValue.path)
        }
        let zone = try root.optionalString("timezone")
        return (offset, zone == "GMT" ? nil : zone)
    }
}
