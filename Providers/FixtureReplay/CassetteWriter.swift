import FoundationEssentials
import IsobarCore

extension Cassette {
    /// Header fields never written to a cassette.
    public static let droppedHeaders: Set<String> = ["set-cookie", "authorization", "cookie", "proxy-authorization"]

    /// The cassette text for `interactions`, pretty-printed, one interaction per entry.
    public static func encode(_ interactions: [Interaction], recordedAt: Date) -> String {
        func iso(_ date: Date) -> String { CivilTime.iso(date, utcOffsetSeconds: 0) }
        let entries = interactions.map { interaction -> String in
            var response: [(String, JSONOutput)] = [
                ("status", .integer(interaction.response.status)),
                ("headers", .array(interaction.response.headers.map { .array([.string($0.name), .string($0.value)]) })),
            ]
            if let text = String(validating: interaction.response.body, as: UTF8.self) {
                response.append(("body", .string(text)))
            } else {
                response.append(("body_base64", .string(Data(interaction.response.body).base64EncodedString())))
            }
            let request = JSONOutput.object([("method", .string(interaction.method)), ("url", .string(interaction.url.string))])
            let entry = JSONOutput.object([("recorded_at", .string(iso(interaction.recordedAt))), ("request", request), ("response", .object(response))])
            return "    " + entry.serialized()
        }
        return """
        {
          "format": "isobar-cassette",
          "version": \(version),
          "recorded_at": "\(iso(recordedAt))",
          "interactions": [
        \(entries.joined(separator: ",\n"))
          ]
        }

        """
    }

    /// The exchange with every secret removed: secret query parameters, credential headers, and any secret value in headers or body.
    public static func scrubbed(_ request: HTTPRequest, _ response: HTTPResponse, recordedAt: Date) -> Interaction {
        let secrets = request.secretValues
        func scrub(_ text: String) -> String {
            secrets.reduce(text) { $0.replacingAll($1, with: "REDACTED") }
        }
        let names = CassetteLibrary.secretNames.union(request.secretQueryNames)
        let headers = response.headers
            .filter { !droppedHeaders.contains($0.name.lowercased()) }
            .map { HTTPHeader($0.name, scrub($0.value)) }
        // Bytes, not text: a body that is not UTF-8 is stored as base64 and must be clean too; percent-encoded copies as well.
        let forms = secrets.flatMap { [Array($0.utf8), Array(PercentEncoding.encode($0, keeping: PercentEncoding.querySafe).utf8)] }
        let body = forms.reduce(response.body) { $0.replacingAll($1, with: Array("REDACTED".utf8)) }
        return Interaction(
            method: request.method, url: request.url.removing(queryNames: names),
            response: HTTPResponse(status: response.status, headers: headers, body: body), recordedAt: recordedAt, file: "")
    }
}

extension Array where Element == UInt8 {
    /// Every occurrence of `target` replaced.
    func replacingAll(_ target: [UInt8], with replacement: [UInt8]) -> [UInt8] {
        guard !target.isEmpty, count >= target.count else { return self }
        var result: [UInt8] = []
        result.reserveCapacity(count)
        var index = startIndex
        while index < endIndex {
            if index + target.count <= endIndex, self[index..<index + target.count].elementsEqual(target) {
                result += replacement
                index += target.count
            } else {
                result.append(self[index])
                index += 1
            }
        }
        return result
    }
}
