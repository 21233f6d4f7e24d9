import FoundationEssentials

extension ProviderError {
    /// The error an HTTP failure status stands for, or nil for a 2xx status.
    ///
    /// `serverMessage` is the provider's own explanation from the error body, if any; `now` dates a `Retry-After` given as an HTTP date.
    public static func forStatus(_ response: HTTPResponse, provider: String, serverMessage: String?, now: Date) -> ProviderError? {
        let status = response.status
        guard !(200...299).contains(status) else { return nil }
        let detail = serverMessage.map { ": \($0)" } ?? ""
        switch status {
        case 401, 403:
            return ProviderError(.unauthorized, "\(provider) refused the API key (HTTP \(status))\(detail)")
        case 404:
            return ProviderError(.notFound, "\(provider) found nothing there (HTTP 404)\(detail)")
        case 429:
            let retryAfter = response.header("Retry-After").flatMap { RetryAfter.seconds($0, now: now) }
            let wait = retryAfter.map { "; retry in \(Int($0.rounded(.up))) s" } ?? ""
            return ProviderError(.rateLimited(retryAfterSeconds: retryAfter), "\(provider) is rate limiting requests (HTTP 429)\(wait)\(detail)")
        case 408, 504:
            let retryAfter = status == 504 ? response.header("Retry-After").flatMap { RetryAfter.seconds($0, now: now) } : nil
            let wait = retryAfter.map { "; retry in \(Int($0.rounded(.up))) s" } ?? ""
            return ProviderError(.timeout, "\(provider) timed out (HTTP \(status))\(wait)\(detail)", retryAfterSeconds: retryAfter)
        case 500...599:
            // A 503 (or any 5xx) may say when to come back: that is a pause for every process, not a failure to retry at once.
            let retryAfter = response.header("Retry-After").flatMap { RetryAfter.seconds($0, now: now) }
            let wait = retryAfter.map { "; retry in \(Int($0.rounded(.up))) s" } ?? ""
            return ProviderError(.unavailable, "\(provider) is unavailable (HTTP \(status))\(wait)\(detail)", retryAfterSeconds: retryAfter)
        case 400...499:
            return ProviderError(.badRequest, "\(provider) rejected the request (HTTP \(status))\(detail)")
        default:
            return ProviderError(.badResponse(path: "$"), "\(provider) answered with unexpected HTTP status \(status)\(detail)")
        }
    }
}

/// Reads the `Retry-After` header: delay seconds or an HTTP date.
public enum RetryAfter {
    /// Seconds to wait from `now`, never negative; nil when the text is neither form.
    public static func seconds(_ text: String, now: Date) -> Double? {
        let trimmed = text.trimmingSpaces()
        // Anything beyond a year is as good as never, and keeps later arithmetic in range.
        let longest = 366.0 * 86_400
        if let delay = Int(trimmed) { return delay >= 0 ? min(Double(delay), longest) : nil }
        guard let date = httpDate(trimmed) else { return nil }
        return min(longest, max(0, date.timeIntervalSince(now)))
    }

    /// Parses an IMF-fixdate such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func httpDate(_ text: String) -> Date? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]),
              let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3]),
              let date = LocalDate(year: year, month: month + 1, day: day) else { return nil }
        return CivilTime.instant(localISO: "\(date)T\(parts[4])", utcOffsetSeconds: 0)
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    public func trimmingSpaces() -> String {
        self[...].trimmedASCII { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") } ?? trimming(" \t")
    }

    /// The text without leading and trailing characters from `characters`.
    public func trimming(_ characters: String) -> String {
        let set = Set(characters)
        guard let first = firstIndex(where: { !set.contains($0) }), let last = lastIndex(where: { !set.contains($0) }) else { return "" }
        return String(self[first...last])
    }

    /// Every occurrence of `target` replaced by `replacement`.
    public func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

/// A response body parsed once, with the provider's own explanation read from it.
public struct CheckedBody {
    /// The parsed body, or why it could not be parsed.
    public let parsed: Result<JSONValue, JSONError>
    /// The provider's explanation (its `message` or `reason` member), when the body has one.
    public let serverMessage: String?

    /// Parses the body (a key named twice in one object is an error naming its path), then throws the error a failure status stands for (naming the server's explanation found under `messageKey`).
    public init(_ response: HTTPResponse, provider: String, messageKey: String, now: Date) throws(ProviderError) {
        parsed = Result { () throws(JSONError) in try JSONDocument(parsing: response.body, rejectingDuplicateKeys: true).rootValue }
        serverMessage = (try? parsed.get()).flatMap { try? $0.optionalString(messageKey) }
        if let failure = ProviderError.forStatus(response, provider: provider, serverMessage: serverMessage, now: now) {
            throw failure
        }
    }

    /// The parsed body of a success status.
    public func root() throws(JSONError) -> JSONValue { try parsed.get() }
}

extension Substring {
    /// The text without the leading and trailing bytes `dropped` holds for, when the text is all ASCII; nil otherwise, for a
    /// trim by characters instead. Bytes and characters then trim alike as long as `dropped` holds for both CR and LF or for
    /// neither (CR LF is the one ASCII character of two bytes).
    package func trimmedASCII(dropping dropped: (UInt8) -> Bool) -> String? {
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        guard let first = utf8.firstIndex(where: { !dropped($0) }), let last = utf8.lastIndex(where: { !dropped($0) }) else { return "" }
        return String(self[first...last])
    }
}
