import FoundationEssentials
import IsobarCore

/// A recorded HTTP exchange: what was asked (secrets removed) and what came back.
public struct Interaction: Sendable, Equatable {
    /// Request method, e.g. `GET`.
    public var method: String
    /// Request URL without secret parameters.
    public var url: RequestURL
    /// The response as received.
    public var response: HTTPResponse
    /// When it was recorded.
    public var recordedAt: Date
    /// The file it came from, for messages.
    public var file: String

    /// Creates an interaction.
    public init(method: String, url: RequestURL, response: HTTPResponse, recordedAt: Date, file: String) {
        self.method = method
        self.url = url
        self.response = response
        self.recordedAt = recordedAt
        self.file = file
    }
}

/// Reads cassette files (format `isobar-cassette`, version 1).
public enum Cassette {
    /// The only format version this build reads.
    public static let version = 1

    /// Parses one cassette file's text; `file` names it in errors.
    public static func interactions(parsing bytes: [UInt8], file: String) throws(ProviderError) -> [Interaction] {
        do {
            let root = try JSONDocument(parsing: bytes).rootValue
            guard try root.string("format") == "isobar-cassette" else {
                throw ProviderError(.badResponse(path: "$.format"), "\(file) is not an isobar cassette")
            }
            let version = try root.int("version")
            guard version == Self.version else {
                throw ProviderError(.badResponse(path: "$.version"), "\(file) is cassette version \(version); this build reads version \(Self.version)")
            }
            let defaultTime = try root.optionalString("recorded_at")
            return try root.member("interactions").elements().map { entry in
                let request = try entry.member("request")
                let response = try entry.member("response")
                let urlValue = try request.member("url")
                guard let url = RequestURL(string: try urlValue.string()) else {
                    throw ProviderError(.badResponse(path: urlValue.path.description), "\(file): \(urlValue.path) is not an http(s) URL")
                }
                let timeText = try entry.optionalString("recorded_at") ?? defaultTime
                guard let timeText, let recordedAt = CivilTime.instant(iso: timeText) else {
                    throw ProviderError(.badResponse(path: entry.path.appending(key: "recorded_at").description),
                                        "\(file): every interaction needs an ISO-8601 recorded_at with a zone")
                }
                var headers: [HTTPHeader] = []
                if let list = try response.nonNullMember("headers") {
                    for pair in try list.elements() {
                        let parts = try pair.elements()
                        guard parts.count == 2 else { throw JSONError(.typeMismatch(expected: "[name, value]", found: "\(parts.count) items"), path: pair.path) }
                        headers.append(HTTPHeader(try parts[0].string(), try parts[1].string()))
                    }
                }
                let body: [UInt8]
                if let text = try response.optionalString("body") {
                    body = Array(text.utf8)
                } else if let encoded = try response.optionalString("body_base64") {
                    guard let data = Data(base64Encoded: encoded) else {
                        throw ProviderError(.badResponse(path: response.path.appending(key: "body_base64").description), "\(file): body_base64 is not base64")
                    }
                    body = Array(data)
                } else {
                    body = []
                }
                return Interaction(
                    method: try request.optionalString("method") ?? "GET", url: url,
                    response: HTTPResponse(status: try response.int("status"), headers: headers, body: body),
                    recordedAt: recordedAt, file: file)
            }
        } catch let error as JSONError {
            throw ProviderError(.badResponse(path: error.path), "\(file) is not a valid cassette: \(error)")
        } catch let error as ProviderError {
            throw error
        } catch {
            throw ProviderError(.badResponse(path: "$"), "\(file) is not a valid cassette")
        }
    }
}
