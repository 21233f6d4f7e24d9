import FoundationEssentials
import IsobarCore

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
    /// The answer's caching headers (`Cache-Control`, `Expires`), which a `304` without its own keeps in force (RFC 9111 §4.3.4).
    public var headers: [HTTPHeader]

    /// Creates a validation record.
    public init(entityTag: String?, lastModified: String?, body: String, storedAt: Date, headers: [HTTPHeader] = []) {
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.body = body
        self.storedAt = storedAt
        self.headers = headers
    }

    /// The names of the headers kept, lowercased.
    public static let keptHeaders: Set<String> = ["cache-control", "expires"]

    /// `headers` one per line, `Name: value`, as stored.
    public var headerLines: String { headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }

    /// Headers read back from `headerLines`.
    public static func headers(fromLines text: String) -> [HTTPHeader] {
        text.split(separator: "\n").compactMap { line -> HTTPHeader? in
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            return HTTPHeader(String(parts[0]), String(parts[1]).trimmingSpaces())
        }
    }
}

/// Keeps validators and bodies per request (provider and redacted URL, never a secret), for conditional requests.
public protocol HTTPValidatorStore: StoragePart {
    /// The record kept under `key`, if any.
    func validation(for key: String) async throws(StorageError) -> HTTPValidation?
    /// Keeps `validation` under `key`, replacing what was there.
    func storeValidation(_ validation: HTTPValidation, for key: String) async throws(StorageError)
    /// Forgets the record under `key`, if any.
    func removeValidation(for key: String) async throws(StorageError)
    /// False when a lookup is known to find nothing (nothing is kept), so that none need be made.
    var mayHoldValidations: Bool { get }
}

extension HTTPValidatorStore {
    /// True: a lookup may find a record.
    public var mayHoldValidations: Bool { true }
}
