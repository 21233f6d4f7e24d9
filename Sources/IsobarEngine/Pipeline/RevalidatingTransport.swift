import FoundationEssentials
import IsobarCore
import Synchronization

/// One fetch's HTTP caching: sends each `GET` conditionally (`If-None-Match`, `If-Modified-Since`) when a validated body is
/// kept for it, hands the provider that body as a `200` when the answer is `304 Not Modified`, and reads every answer's
/// caching headers into one `HTTPCaching`.
///
/// Validators and bodies are written only by `commit()`, once the provider has decoded and validated its answer, so a body
/// that failed to decode is never confirmed by a later `304`. Keys are the provider's storage key and the redacted URL;
/// a body holding one of the request's secret values is never kept. The weather's `FetchStep` and the alert sources'
/// polling both speak HTTP caching through it.
public final class RevalidatingTransport: Transport {
    private struct State {
        var caching: HTTPCaching?
        var writes: [String: HTTPValidation?] = [:]
    }

    /// The transport that sends.
    public let base: any Transport
    /// Where validators and bodies are kept; nil to send every request unconditionally and keep nothing.
    public let store: (any HTTPValidatorStore)?
    /// False to send no validators (`--record`); full answers are still kept.
    public let conditional: Bool
    /// The provider's storage key, the first part of every record's key.
    public let storageKey: String
    /// The clock answers are dated by.
    public let time: any TimeSource
    /// Where storage failures go.
    public let diagnostics: any DiagnosticSink
    private let state = Mutex(State())

    /// Wraps `base` for one fetch.
    public init(base: any Transport, store: (any HTTPValidatorStore)?, conditional: Bool, storageKey: String, time: any TimeSource,
                diagnostics: any DiagnosticSink) {
        self.base = base
        self.store = store
        self.conditional = conditional
        self.storageKey = storageKey
        self.time = time
        self.diagnostics = diagnostics
    }

    /// The combined reading of every answer so far; nil before the first.
    public var caching: HTTPCaching? { state.withLock { $0.caching } }

    /// Sends `request`, conditionally when a body is kept for it; a `304` that confirms it comes back as that body with status 200.
    public func send(_ request: HTTPRequest) async throws(ProviderError) -> HTTPResponse {
        // The record's key is spelled out only when a record may be read or written (its URL is costly to write out).
        let key = { [storageKey] in "\(storageKey) \(request.method) \(request.redactedURL)" }
        let kept = store?.mayHoldValidations == true && request.method == "GET" ? await load(key()) : nil
        var sent = request
        if conditional, let kept {
            if let tag = kept.entityTag { sent.headers.append(HTTPHeader("If-None-Match", tag)) }
            if let date = kept.lastModified { sent.headers.append(HTTPHeader("If-Modified-Since", date)) }
        }
        let response = try await base.send(sent)
        let now = time.now()
        if response.status == 304, conditional, let kept {
            // The 304's headers replace the kept ones of the same name; the others stay in force (RFC 9111 §4.3.4).
            let names = Set(response.headers.map { $0.name.lowercased() })
            let merged = kept.headers.filter { !names.contains($0.name.lowercased()) } + response.headers
            let confirmedAnswer = HTTPResponse(status: 200, headers: merged, body: Array(kept.body.utf8))
            var reading = HTTPCaching(confirmedAnswer, receivedAt: now)
            reading.revalidated = true
            var confirmed = kept
            confirmed.storedAt = now
            confirmed.headers = merged.filter { HTTPValidation.keptHeaders.contains($0.name.lowercased()) }
            if let tag = response.header("ETag") { confirmed.entityTag = tag }
            if let date = response.header("Last-Modified") { confirmed.lastModified = date }
            record(reading, key: key(), write: reading.noStore ? .some(nil) : .some(confirmed))
            return confirmedAnswer
        }
        var reading = HTTPCaching(response, receivedAt: now)
        reading.revalidated = false
        var write: HTTPValidation?? = nil
        if store != nil, response.status == 200, request.method == "GET" {
            let keep = keepable(response, reading, request, now)
            if keep != nil || kept != nil { write = .some(keep) }
        }
        record(reading, key: write == nil ? nil : key(), write: write)
        return response
    }

    /// Writes what the fetch's answers left to keep or forget.
    public func commit() async {
        guard let store else { return }
        let writes = state.withLock { state in
            defer { state.writes = [:] }
            return state.writes
        }
        for (key, write) in writes.sorted(by: { $0.key < $1.key }) {
            do {
                if let validation = write {
                    try await store.storeValidation(validation, for: key)
                } else {
                    try await store.removeValidation(for: key)
                }
            } catch {
                diagnostics.report(Diagnostic(.cache, "cannot keep the validators of an answer: \(error.message)"))
            }
        }
    }

    /// The record to keep for a `200` answer, or nil to forget any: it needs a validator, a UTF-8 body and no secret in it.
    private func keepable(_ response: HTTPResponse, _ reading: HTTPCaching, _ request: HTTPRequest, _ now: Date) -> HTTPValidation? {
        let tag = response.header("ETag")
        let date = response.header("Last-Modified")
        guard !reading.noStore, tag != nil || date != nil, let body = String(validating: response.body, as: UTF8.self),
              !request.secretValues.contains(where: { body.contains($0) }) else { return nil }
        return HTTPValidation(entityTag: tag, lastModified: date, body: body, storedAt: now,
                              headers: response.headers.filter { HTTPValidation.keptHeaders.contains($0.name.lowercased()) })
    }

    private func record(_ reading: HTTPCaching, key: String?, write: HTTPValidation??) {
        state.withLock { state in
            state.caching = state.caching.map { $0.combined(with: reading) } ?? reading
            if let write, let key { state.writes[key] = write }
        }
    }

    private func load(_ key: String) async -> HTTPValidation? {
        guard let store else { return nil }
        do {
            return try await store.validation(for: key)
        } catch {
            diagnostics.report(Diagnostic(.cache, "cannot read the validators of an answer: \(error.message)"))
            return nil
        }
    }
}
