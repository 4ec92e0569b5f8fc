import TargetingBase

/// An error answer of the server's own routes: `{"error": {"code", "message"}}`.
package struct ServeError: Error, Hashable, Sendable {
    package var status: HTTPStatus
    /// A stable lowercase code, e.g. `invalid_profile`.
    package var code: String
    package var message: String

    package init(_ status: HTTPStatus, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// The answer.
    package var response: HTTPResponse {
        let body = JSONValue.object([JSONMember(key: "error", value: .object([
            JSONMember(key: "code", value: .string(code)),
            JSONMember(key: "message", value: .string(message)),
        ]))])
        var headers: [HTTPHeader] = []
        if status == .unauthorized { headers.append(HTTPHeader(name: "WWW-Authenticate", value: "Bearer")) }
        return .json(status, Array(JSONWriter.write(body).utf8), headers: headers)
    }

    static func invalidJSON(_ error: JSONParseError) -> ServeError {
        let place = error.line > 1 ? "line \(error.line), column \(error.column)" : "column \(error.column)"
        return ServeError(.badRequest, "invalid_json", "invalid JSON at \(place): \(error.message)")
    }

    static func invalidRequest(_ message: String) -> ServeError { ServeError(.badRequest, "invalid_request", message) }

    /// A `now` (member or query parameter) that is not an instant.
    static func invalidTime(_ text: String) -> ServeError {
        .invalidRequest("invalid time `\(text)` for `now`; use RFC 3339 (2026-11-29T12:00:00Z) or YYYY-MM-DD")
    }
}
