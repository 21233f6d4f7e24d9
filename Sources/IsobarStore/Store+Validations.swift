import FoundationEssentials
import IsobarEngine

extension Store: HTTPValidatorStore {
    /// The validation record kept under `key`, if any.
    /// When the table was empty at the first lookup and this process has kept none since, nothing is looked up: a record
    /// another process keeps meanwhile is used from this process's next run (until then its requests are unconditional).
    public func validation(for key: String) async throws(StorageError) -> HTTPValidation? {
        let kept = validatorsKept.load(ordering: .relaxed)
        if kept == ValidatorsKept.none { return nil }
        return try await readingOne { [self] connection throws(StoreError) in
            if kept == ValidatorsKept.unknown {
                let any = try connection.query("SELECT EXISTS (SELECT 1 FROM http_validations)").first?.first?.int ?? 1
                // A record kept by this process meanwhile (`some`) is never overwritten by `none`.
                _ = validatorsKept.compareExchange(expected: ValidatorsKept.unknown, desired: any == 0 ? ValidatorsKept.none : ValidatorsKept.some,
                                                   ordering: .relaxed)
                if any == 0 { return nil }
            }
            let rows = try connection.query("SELECT etag, last_modified, body, stored_at, headers FROM http_validations WHERE request_key = ?",
                                            [.text(key)])
            guard let row = rows.first, let body = row[2].text, let storedAt = row[3].double else { return nil }
            return HTTPValidation(entityTag: row[0].text, lastModified: row[1].text, body: body,
                                  storedAt: Date(timeIntervalSince1970: storedAt),
                                  headers: HTTPValidation.headers(fromLines: row[4].text ?? ""))
        }
    }

    /// False once a lookup found none kept and this process has kept none since (see `validation(for:)`).
    public var mayHoldValidations: Bool { validatorsKept.load(ordering: .relaxed) != ValidatorsKept.none }

    /// Keeps `validation` under `key`, replacing what was there.
    public func storeValidation(_ validation: HTTPValidation, for key: String) async throws(StorageError) {
        validatorsKept.store(ValidatorsKept.some, ordering: .relaxed)
        try await writing { connection throws(StoreError) in
            try connection.query(
                """
                INSERT OR REPLACE INTO http_validations(request_key, etag, last_modified, body, stored_at, headers)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [.text(key), validation.entityTag.map(SQLValue.text) ?? .null, validation.lastModified.map(SQLValue.text) ?? .null,
                 .text(validation.body), .real(validation.storedAt.timeIntervalSince1970), .text(validation.headerLines)])
        }
    }

    /// Forgets the record under `key`, if any.
    public func removeValidation(for key: String) async throws(StorageError) {
        try await writing { connection throws(StoreError) in
            try connection.query("DELETE FROM http_validations WHERE request_key = ?", [.text(key)])
        }
    }
}

/// What a store knows of the HTTP validators kept in its file.
enum ValidatorsKept {
    /// Not looked yet.
    static let unknown = 0
    /// None when first looked, and this process has kept none since.
    static let none = 1
    /// Some may be kept.
    static let some = 2
}
