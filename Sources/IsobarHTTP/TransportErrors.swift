import CCurl
import IsobarCore

/// Maps libcurl results to `ProviderError`s naming the provider and host, never the URL.
enum TransportErrors {
    /// `connectTimedOut` tells which limit a timeout hit: the connect timeout (no connection yet, and its time spent)
    /// or the total one; `deadlinePassed`, that the request's `notAfter` had come, which then is the cause said.
    static func map(_ code: CURLcode, label: String, host: String, limits: TransferLimits, connectTimedOut: Bool,
                    refusedAsTooLarge: Bool, deadlinePassed: Bool = false) -> ProviderError {
        let seconds = SpokenDuration.seconds
        switch code {
        case CURLE_WRITE_ERROR where refusedAsTooLarge:
            return map(CURLE_FILESIZE_EXCEEDED, label: label, host: host, limits: limits, connectTimedOut: connectTimedOut,
                       refusedAsTooLarge: true, deadlinePassed: deadlinePassed)
        case CURLE_FILESIZE_EXCEEDED:
            return ProviderError(.badResponse(path: "$"), "\(label): \(host) sent a body larger than \(limits.maxResponseBytes) bytes; refused",
                                 reason: .bodyTooLarge)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return ProviderError(.unavailable, "\(label): cannot resolve \(host) (DNS failure or no network)", reason: .dnsFailure)
        case CURLE_COULDNT_CONNECT:
            return ProviderError(.unavailable, "\(label): \(host) refused the connection or is unreachable", reason: .connectionRefused)
        case CURLE_OPERATION_TIMEDOUT where deadlinePassed:
            // The deadline (the command's, or the provider's budget) shortened the limits to what was left of it: the
            // connect timeout's name would blame the host for a wait it was never given.
            let left = limits.totalTimeoutSeconds
            guard left >= 0.05 else {
                return ProviderError(.timeout, "\(label): no time left before the deadline for \(host) to answer", reason: .deadline)
            }
            return ProviderError(.timeout, "\(label): no answer from \(host) within the \(seconds(left)) s left before the deadline",
                                 reason: .deadline)
        case CURLE_OPERATION_TIMEDOUT where connectTimedOut:
            return ProviderError(.timeout, "\(label): no connection to \(host) within \(seconds(limits.connectTimeoutSeconds)) s",
                                 reason: .connectTimeout)
        case CURLE_OPERATION_TIMEDOUT:
            return ProviderError(.timeout, "\(label): no complete answer from \(host) within \(seconds(limits.totalTimeoutSeconds)) s",
                                 reason: .totalTimeout)
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
