import FoundationEssentials
import IsobarCore

/// The messages of the exec protocol (version 1.1): what the host writes on a program's stdin, and the checks on its answer.
public enum ExecMessages {
    /// The protocol version this build speaks.
    public static let protocolVersion = 1
    /// The minor version within it, sent as `protocol_minor`: 1 accepts every quantity of the table (dew point, UV index).
    public static let protocolMinorVersion = 1

    /// `{"protocol":1,"protocol_minor":1,"call":"describe"}`.
    public static func describe() -> JSONOutput {
        .object([("protocol", .integer(protocolVersion)), ("protocol_minor", .integer(protocolMinorVersion)), ("call", .string("describe"))])
    }

    /// A `plan`, `decode` or `fetch` message for `request`; `key` only for a program that declared one.
    static func call(_ name: String, _ request: WeatherRequest, baseURL: RequestURL?, key: String?, round: Int? = nil,
                     state: JSONOutput? = nil, responses: [JSONOutput]? = nil) -> JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("protocol", .integer(protocolVersion)), ("protocol_minor", .integer(protocolMinorVersion)), ("call", .string(name)),
            ("request", encode(request)),
        ]
        if let round { members.append(("round", .integer(round))) }
        members.append(("base_url", .string(baseURL?.string)))
        if let key { members.append(("key", .string(key))) }
        if let state { members.append(("state", state)) }
        if let responses { members.append(("responses", .array(responses))) }
        return .object(members)
    }

    /// The request part of a message: the place, the kinds wanted, and the units (always SI, as in the model).
    static func encode(_ request: WeatherRequest) -> JSONOutput {
        var place = request.place
        place.coordinate = place.coordinate.rounded
        return .object([
            ("place", .object(PlaceJSON.locating(place) + [
                ("timezone", .string(place.timeZoneIdentifier)), ("utc_offset_seconds", place.utcOffsetSeconds.map { .integer($0) } ?? .null),
            ])),
            ("kinds", .array(DataKind.allCases.filter(request.kinds.contains).map { .string($0.rawValue) })),
            ("units", .string("si")),
        ])
    }

    /// One HTTP response as the program sees it: the URL asked (secrets removed), status, headers and body (text, or base64 when not UTF-8).
    static func encode(_ response: HTTPResponse, for request: HTTPRequest) -> JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("url", .string(request.redactedURL)), ("status", .integer(response.status)),
            ("headers", .array(response.headers.map { .array([.string($0.name), .string($0.value)]) })),
        ]
        if let text = String(validating: response.body, as: UTF8.self) {
            members.append(("body", .string(text)))
        } else {
            members.append(("body_base64", .string(Data(response.body).base64EncodedString())))
        }
        return .object(members)
    }

    /// The answer if it speaks this protocol and says `ok`; a program's own error (`ok: false`) is thrown as a `ProviderError`.
    static func checked(_ answer: JSONValue, providerID: String, end: ProgramEnd) throws(ProviderError) -> JSONValue {
        do {
            guard answer.kind == .object else {
                throw ProviderError(.badResponse(path: "$"), "\(providerID): the program's answer is a \(answer.kind.name), not an object")
            }
            guard let version = try answer.member(ifPresent: "protocol") else {
                throw ProviderError(.badResponse(path: "$.protocol"), "\(providerID): the program's answer has no protocol version")
            }
            guard version.kind == .number, let number = try? version.int(), number == protocolVersion else {
                throw ProviderError(.badResponse(path: "$.protocol"),
                                    "\(providerID): the program speaks protocol \(version.kind == .number ? JSONOutput.format(try version.double()) : version.shortText); "
                                        + "this build speaks protocol \(protocolVersion)")
            }
            let ok = try answer.member("ok").bool()
            if !ok { throw try programError(try answer.member("error"), providerID: providerID) }
            if case .exited(let status) = end, status != 0 {
                throw ProviderError(.unavailable, "\(providerID): the program exited with status \(status) after answering")
            }
            return answer
        } catch let error as ProviderError {
            throw error
        } catch let error as JSONError {
            throw ProviderError(.badResponse(path: error.path), "\(providerID): the program's answer is not a protocol message: \(error)")
        } catch {
            throw ProviderError(.badResponse(path: "$"), "\(providerID): the program's answer is not a protocol message")
        }
    }

    /// The `ProviderError` a program's `error` object stands for (same codes as `ProviderError`).
    static func programError(_ error: JSONValue, providerID: String) throws -> ProviderError {
        let code = try error.string("code")
        let message = try error.optionalString("message") ?? code
        let said = "\(providerID): \(message)"
        switch code {
        case "unauthorized": return ProviderError(.unauthorized, said)
        case "not_found": return ProviderError(.notFound, said)
        case "bad_request": return ProviderError(.badRequest, said)
        case "rate_limited":
            let retry = try error.optionalDouble("retry_after_s").map { min(max(0, $0), 366 * 86_400) }
            return ProviderError(.rateLimited(retryAfterSeconds: retry), said)
        case "unavailable": return ProviderError(.unavailable, said)
        case "timeout": return ProviderError(.timeout, said)
        case "bad_response": return ProviderError(.badResponse(path: try error.optionalString("path") ?? "$"), said)
        case "not_configured": return ProviderError(.notConfigured, said)
        case "unsupported": return ProviderError(.unsupported, said)
        case "cancelled": return ProviderError(.cancelled, said)
        default:
            return ProviderError(.badResponse(path: "$.error.code"), "\(providerID): the program answered with an unknown error code '\(code)': \(message)")
        }
    }
}

extension JSONOutput {
    /// A copy of a parsed value, to send back as it came (a program's `state`).
    init(copying value: JSONValue) throws(JSONError) {
        switch value.kind {
        case .null: self = .null
        case .bool: self = .bool(try value.bool())
        case .number: self = .number(try value.double())
        case .string: self = .string(try value.string())
        case .array:
            var elements: [JSONOutput] = []
            for element in try value.elements() { elements.append(try JSONOutput(copying: element)) }
            self = .array(elements)
        case .object:
            var members: [(String, JSONOutput)] = []
            for (key, member) in try value.members() { members.append((key, try JSONOutput(copying: member))) }
            self = .object(members)
        }
    }
}
