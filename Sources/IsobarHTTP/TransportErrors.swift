import CCurl
import IsobarCore

/// Maps libcurl results to `ProviderError`s naming the provider and host, never the URL.
enum TransportErrors {
    /// `connectTimedOut` tells which limit a timeout hit: the connect timeout (no connection yet, and its time spent)
    /// or the total one; `shortenedByDeadline`, that this limit was what was left of the request's deadline as it was sent.
    static func map(_ code: CURLcode, label: String, host: String, limits: TransferLimits, connectTimedOut: Bool,
                    refusedAsTooLarge: Bool, shortenedByDeadline: Bool = false) -> ProviderError {
        let seconds = SpokenDuration.seconds
        switch code {
        case CURLE_WRITE_ERROR where refusedAsTooLarge:
            return map(CURLE_FILESIZE_EXCEEDED, label: label, host: host, limits: limits, connectTimedOut: connectTimedOut,
                       refusedAsTooLarge: true, shortenedByDeadline: shortenedByDeadline)
        case CURLE_FILESIZE_EXCEEDED:
            return ProviderError(.badResponse(path: "$"), "\(label): \(host) sent a body larger than \(limits.maxResponseBytes) bytes; refused",
                                 reason: .bodyTooLarge)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return ProviderError(.unavailable, "\(label): cannot resolve \(host) (DNS failure or no network)", reason: .dnsFailure)
        case CURLE_COULDNT_CONNECT:
            return ProviderError(.unavailable, "\(label): \(host) refused the connection or is unreachable", reason: .connectionRefused)
        case CURLE_OPERATION_TIMEDOUT:
            // A limit the deadline shortened is said as what was left of it: "within 60 s" would blame the host for a wait
            // it never got. With next to nothing left, nothing is known of the host at all.
            let given = connectTimedOut ? limits.connectTimeoutSeconds : limits.totalTimeoutSeconds
            if shortenedByDeadline && given < 0.05 {
                return ProviderError(.timeout, "\(label): no time left before the deadline for \(host) to answer", reason: .deadline)
            }
            let within = shortenedByDeadline ? "within the \(seconds(given)) s left before the deadline" : "within \(seconds(given)) s"
            if connectTimedOut {
                return ProviderError(.timeout, "\(label): no connection to \(host) \(within)", reason: .connectTimeout)
            }
            return ProviderError(.timeout, "\(label): no complete answer from \(host) \(within)", reason: .totalTimeout)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return ProviderError(.unavailable, "\(label): TLS with \(host) failed (\(describe(code)))", reason: .tlsFailure)
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return ProviderError(.unavailable, "\(label): \(host) closed the connection before the whole answer arrived",
                                 reason: .bodyTruncated)
        case CURLE_BAD_CONTENT_ENCODING:
            return ProviderError(.badResponse(path: "$"), "\(label): \(host) sent a body that cannot be decompressed", reason: .badEncoding)
        case CURLE_TOO_MANY_REDIRECTS:
            return ProviderError(.badResponse(path: "$"), "\(label): \(host) redirected more than 3 times", reason: .tooManyRedirects)
        case CURLE_UNSUPPORTED_PROTOCOL:
            return ProviderError(.unsupported, "\(label): \(host) redirected to a non-https address; refused", reason: .insecureRedirect)
        default:
            return ProviderError(.unavailable, "\(label): request to \(host) failed (\(describe(code)))", reason: .transportFailure)
        }
    }

    /// libcurl's generic text for a code (never holds the URL).
    static func describe(_ code: CURLcode) -> String {
        String(cString: isobar_curl_easy_strerror(code))
    }
}
