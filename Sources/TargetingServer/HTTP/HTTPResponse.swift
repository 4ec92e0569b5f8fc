/// An answer to send: a status, header fields and a body.
package struct HTTPResponse: Hashable, Sendable {
    package var status: HTTPStatus
    /// Header fields beyond `Content-Length` and `Connection`, which `bytes` writes.
    package var headers: [HTTPHeader]
    package var body: [UInt8]

    package init(status: HTTPStatus, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON answer.
    package static func json(_ status: HTTPStatus, _ body: [UInt8], headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader(name: "Content-Type", value: "application/json")] + headers, body: body)
    }

    /// The answer's bytes appended to `output`. `keepAlive: false` adds `Connection: close`;
    /// `omitBody` (a `HEAD` request) keeps the length but not the body. A 304 has no body.
    package func append(to output: inout [UInt8], keepAlive: Bool, omitBody: Bool = false) {
        output.append(contentsOf: "HTTP/1.1 ".utf8)
        HTTPResponse.appendDecimal(status.code, to: &output)
        output.append(UInt8(ascii: " "))
        output.append(contentsOf: status.reason.utf8)
        output.append(contentsOf: "\r\n".utf8)
        for header in headers {
            output.append(contentsOf: header.name.utf8)
            output.append(contentsOf: ": ".utf8)
            output.append(contentsOf: header.value.utf8)
            output.append(contentsOf: "\r\n".utf8)
        }
        let hasBody = status.code != 304 && status.code != 204 && !(100..<200).contains(status.code)
        if hasBody {
            output.append(contentsOf: "Content-Length: ".utf8)
            HTTPResponse.appendDecimal(body.count, to: &output)
            output.append(contentsOf: "\r\n".utf8)
        }
        if !keepAlive { output.append(contentsOf: "Connection: close\r\n".utf8) }
        output.append(contentsOf: "\r\n".utf8)
        if hasBody, !omitBody { output.append(contentsOf: body) }
    }

    /// The decimal digits of a count.
    static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        guard value >= 10 else { return output.append(UInt8(ascii: "0") + UInt8(max(0, value))) }
        appendDecimal(value / 10, to: &output)
        output.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
