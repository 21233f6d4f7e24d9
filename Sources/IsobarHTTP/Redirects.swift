import IsobarCore

/// Which redirects are followed: only to the same host, over https (plain http only from a loopback host to itself, same
/// port), at most `limit` in a row. libcurl follows none itself, so no request ever reaches another host.
enum Redirects {
    /// The most redirects followed for one request.
    static let limit = 3

    /// The statuses that redirect when they carry a `Location`.
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The request to send next when `response` to `request` is a redirect, nil when it is not one; throws when the
    /// redirect is refused. `followed` counts the redirects already followed for this request.
    static func next(after response: HTTPResponse, to request: HTTPRequest, followed: Int) throws(ProviderError) -> HTTPRequest? {
        guard statuses.contains(response.status), let location = response.header("Location"), !location.isEmpty else { return nil }
        let label = request.origin.isEmpty ? request.url.authority : request.origin
        let from = request.url
        guard followed < limit else {
            throw ProviderError(.badResponse(path: "$"), "\(label): \(from.authority) redirected more than \(limit) times",
                                reason: .tooManyRedirects)
        }
        guard let target = resolve(location, against: from) else {
            throw ProviderError(.unsupported, "\(label): \(from.authority) redirected to an address that is not http or https; refused",
                                reason: .insecureRedirect)
        }
        guard target.host == from.host else {
            throw ProviderError(.unsupported, "\(label): \(from.authority) redirected to another host, \(target.authority); refused",
                                reason: .insecureRedirect)
        }
        let sameLoopbackOrigin = target.scheme == from.scheme && CurlTransport.isLoopback(target.host)
            && effectivePort(target) == effectivePort(from)
        guard target.scheme == "https" || sameLoopbackOrigin else {
            throw ProviderError(.unsupported, "\(label): \(from.authority) redirected to a non-https address; refused",
                                reason: .insecureRedirect)
        }
        var next = request
        next.url = target
        if response.status == 303 && request.method != "HEAD" { next.method = "GET" }
        return next
    }

    /// `location` (absolute, scheme-relative, absolute-path or relative) as a URL, resolved against `base`.
    static func resolve(_ location: String, against base: RequestURL) -> RequestURL? {
        let text = location.trimming(" \t")
        if let colon = text.firstIndex(of: ":"), !text[..<colon].contains(where: { "/?#".contains($0) }) {
            // Has a scheme: only an absolute http or https URL parses.
            return RequestURL(string: text)
        }
        if text.hasPrefix("//") { return RequestURL(string: "\(base.scheme):\(text)") }
        let prefix = "\(base.scheme)://\(base.authority)"
        if text.hasPrefix("/") { return RequestURL(string: prefix + text) }
        let basePath = PercentEncoding.encode(base.path, keeping: PercentEncoding.pathSafe)
        if text.hasPrefix("?") { return RequestURL(string: prefix + basePath + text) }
        let directory = basePath.lastIndex(of: "/").map { String(basePath[...$0]) } ?? "/"
        return RequestURL(string: prefix + directory + text)
    }

    /// The port, or the scheme's default.
    private static func effectivePort(_ url: RequestURL) -> Int { url.port ?? (url.scheme == "https" ? 443 : 80) }
}
