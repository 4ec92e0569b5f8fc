/// An HTTP status code and its reason phrase.
package struct HTTPStatus: Hashable, Sendable {
    package var code: Int
    package var reason: String

    package init(_ code: Int, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    package static let ok = HTTPStatus(200, "OK")
    package static let notModified = HTTPStatus(304, "Not Modified")
    package static let badRequest = HTTPStatus(400, "Bad Request")
    package static let unauthorized = HTTPStatus(401, "Unauthorized")
    package static let notFound = HTTPStatus(404, "Not Found")
    package static let methodNotAllowed = HTTPStatus(405, "Method Not Allowed")
    package static let requestTimeout = HTTPStatus(408, "Request Timeout")
    package static let payloadTooLarge = HTTPStatus(413, "Content Too Large")
    package static let unprocessable = HTTPStatus(422, "Unprocessable Content")
    package static let headersTooLarge = HTTPStatus(431, "Request Header Fields Too Large")
    package static let internalError = HTTPStatus(500, "Internal Server Error")
    package static let notImplemented = HTTPStatus(501, "Not Implemented")
    package static let unavailable = HTTPStatus(503, "Service Unavailable")
    package static let versionNotSupported = HTTPStatus(505, "HTTP Version Not Supported")
}
