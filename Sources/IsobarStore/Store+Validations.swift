import FoundationEssentials
import IsobarEngine

extension Store: HTTPValidatorStore {
    /// The validation record kept under `key`, if any.
    public func validation(for key: String) async throws(StorageError) -> HTTPValidation? {
        try await readingOne { connection throws(StoreError) in
            let rows = try connection.query("SELECT etag, last_modified, body, stored_at, headers FROM http_validations WHERE request_key = ?",
                                            [.text(key)])
            guard let row = rows.first, let body = row[2].text, let storedAt = row[3].double else { return nil }
            return HTTPValidation(entityTag: row[0].text, lastModified: row[1].text, body: body,
                                  storedAt: Date(timeIntervalSince1970: storedAt),
                                  headers: HTTPValidation.headers(fromLines: row[4].text ?? ""))
        }
    }

    /// Keeps `validation` under `key`, replacing what was there.
    public func storeValidation(_ validation: HTTPValidation, for key: String) async throws(StorageError) {
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
