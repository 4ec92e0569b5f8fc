import TargetingFuzzSupport
import TargetingServer

/// Arbitrary bytes as what a connection received, through the HTTP request parser:
/// - a request's `length` is within the input, its body within the limit, its path absolute,
///   its header names lowercase tokens and its values trimmed, without line breaks;
/// - cut anywhere, the input parses as it must: before a request's end, incomplete; after it,
///   the same request; a prefix of an incomplete input is incomplete, and a refused input has
///   no prefix that is a request;
/// - a request written back out (origin form, its header fields, its body with a
///   `Content-Length`) reads again to the same request;
/// - the bytes after a request parse too (pipelining).
/// A first byte below 8 picks smaller limits (and is not part of the request), so the limits
/// are reached with short inputs.
FuzzDriver.run { data, size in
    FuzzHTTPRequest.check(FuzzDriver.bytes(data, size))
    return 0
}

enum FuzzHTTPRequest {
    static func check(_ input: [UInt8]) {
        var bytes = input
        var limits = HTTPLimits.standard
        if let first = input.first, first < 8 {
            limits.maxBodyBytes = [16, 64, 1024, 1 << 20][Int(first & 3)]
            limits.maxHeaderBytes = first & 4 == 0 ? 64 : 1024
            bytes.removeFirst()
        }
        let whole = HTTPRequestParser.parse(bytes, limits: limits)
        var cuts = [bytes.count / 2, bytes.count / 3, Int(hash(bytes) % UInt64(bytes.count + 1))]
        if !bytes.isEmpty { cuts.append(bytes.count - 1) }
        switch whole {
        case .request(let request, let length):
            checkShape(request, length: length, count: bytes.count, limits: limits)
            cuts += [length - 1, length]
            checkRoundTrip(request, limits: limits)
            if length < bytes.count { _ = HTTPRequestParser.parse(Array(bytes[length...]), limits: limits) }
        case .refused(let status, let message):
            if ![400, 413, 431, 501, 505].contains(status.code) { fuzzFailure("refused with \(status.code)") }
            if message.isEmpty { fuzzFailure("a refusal without a message") }
        case .incomplete:
            break
        }
        for cut in cuts where cut >= 0 && cut <= bytes.count {
            let prefix = HTTPRequestParser.parse(Array(bytes[..<cut]), limits: limits)
            switch (whole, prefix) {
            case (.request(_, let length), .incomplete) where cut < length:
                break
            case (.request(let request, let length), .request(let again, let againLength)) where cut >= length:
                if again != request || againLength != length { fuzzFailure("the first \(cut) bytes read another request") }
            case (.incomplete, .incomplete), (.refused, .incomplete), (.refused, .refused):
                break
            default:
                fuzzFailure("the whole input gives \(whole) but its first \(cut) bytes give \(prefix)")
            }
        }
    }

    static func checkShape(_ request: HTTPRequest, length: Int, count: Int, limits: HTTPLimits) {
        if length <= 0 || length > count { fuzzFailure("length \(length) of \(count) bytes") }
        if request.body.count > limits.maxBodyBytes { fuzzFailure("a body of \(request.body.count) bytes") }
        if !request.path.hasPrefix("/") { fuzzFailure("the path `\(request.path)` is not absolute") }
        if request.target != (request.query.isEmpty && !request.target.hasSuffix("?") ? request.path : request.path + "?" + request.query) {
            fuzzFailure("the target `\(request.target)` is not its path and query")
        }
        if request.minorVersion != 0 && request.minorVersion != 1 { fuzzFailure("HTTP/1.\(request.minorVersion)") }
        for header in request.headers {
            if header.name.isEmpty || header.name != header.name.lowercased() { fuzzFailure("the header name `\(header.name)`") }
            if header.name.utf8.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: ":") || $0 >= 0x7F }) { fuzzFailure("the header name `\(header.name)`") }
            let value = Array(header.value.utf8)
            if value.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) { fuzzFailure("a line break in header `\(header.name)`") }
            for edge in [value.first, value.last] where edge == 0x20 || edge == 0x09 {
                fuzzFailure("an untrimmed value in header `\(header.name)`")
            }
        }
        _ = request.keepsAlive
        _ = request.pathSegments
        _ = request.queryItems
    }

    /// The request written back out reads again to the same request, its framing replaced by a
    /// `Content-Length`.
    static func checkRoundTrip(_ request: HTTPRequest, limits: HTTPLimits) {
        let headers = request.headers.filter { $0.name != "content-length" && $0.name != "transfer-encoding" }
            + [HTTPHeader(name: "content-length", value: String(request.body.count))]
        var text = Array("\(request.method) \(request.target) HTTP/1.\(request.minorVersion)\r\n".utf8)
        for header in headers { text += Array("\(header.name): \(header.value)\r\n".utf8) }
        text += Array("\r\n".utf8)
        text += request.body
        var roomy = limits
        roomy.maxHeaderBytes = text.count
        switch HTTPRequestParser.parse(text, limits: roomy) {
        case .request(let again, let length):
            if length != text.count { fuzzFailure("the written request reads as \(length) of its \(text.count) bytes") }
            var expected = request
            expected.headers = headers
            if again != expected { fuzzFailure("the written request reads differently:\n\(again)\n---\n\(expected)") }
        case let other:
            fuzzFailure("the written request gives \(other):\n\(String(decoding: text, as: UTF8.self))")
        }
    }

    /// FNV-1a of the bytes: a cut point that follows the input.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
