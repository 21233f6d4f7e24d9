import IsobarCore
import IsobarRedis

extension Configuration {
    /// Reads `shared_store`, `expected_machines` and `shared_store_timeout_ms`; a bad URL is an error that never shows its password.
    static func readSharedStore(_ root: JSONValue, into configuration: inout Configuration, file: String) throws {
        if let text = try root.optionalString("shared_store") {
            do {
                _ = try RedisURL(parsing: text)
            } catch {
                throw ConfigurationError("\(file): shared_store: \(error.message)")
            }
            configuration.sharedStore = text
        }
        if let machines = try root.optionalInt("expected_machines", in: 1...10_000) { configuration.expectedMachines = machines }
        if let milliseconds = try root.optionalInt("shared_store_timeout_ms", in: 1...60_000) {
            configuration.sharedStoreTimeoutMilliseconds = milliseconds
        }
    }
}
