import FoundationEssentials

/// A provider's last full answer to one request, with the validators that let it be confirmed by a `304 Not Modified`.
public struct HTTPValidation: Sendable, Equatable {
    /// The `ETag` it came with, if any.
    public var entityTag: String?
    /// The `Last-Modified` it came with, if any.
    public var lastModified: String?
    /// The body of the `200` answer, as received.
    public var body: String
    /// When it was received or last confirmed.
    public var storedAt: Date

    /// Creates a validation record.
    public init(entityTag: String?, lastModified: String?, body: String, storedAt: Date) {
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.body = body
        self.storedAt = storedAt
    }
}

/// Keeps validators and bodies per request (provider and redacted URL, never a secret), for conditional requests.
public protocol HTTPValidatorStore: Sendable {
    /// The record kept under `key`, if any.
    func validation(for key: String) async throws(StorageError) -> HTTPValidation?
    /// Keeps `validation` under `key`, replacing what was there.
    func storeValidation(_ validation: HTTPValidation, for key: String) async throws(StorageError)
    /// Forgets the record under `key`, if any.
    func removeValidation(for key: String) async throws(StorageError)
}
