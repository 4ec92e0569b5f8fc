/// Reads an HTTP/1.1 request from the bytes a connection received: a pure function, so every
/// byte sequence can be tested (and fuzzed) without a socket.
///
/// It takes the request line, header fields (names are tokens, values have no control
/// characters, no line folding), and a body framed by `Content-Length` or
/// `Transfer-Encoding: chunked` (which it joins). Both framings at once, differing lengths or
/// another transfer coding are refused, so a request is never read two ways. Lines may end in
/// CRLF or a bare LF; empty lines before a request are skipped, and count toward the header
/// limit, so no stream of them is buffered without end.
package enum HTTPRequestParser {
    /// The first request in `bytes`, or what is missing, or why it is refused.
    package static func parse(_ bytes: [UInt8], limits: HTTPLimits) -> HTTPParseResult {
        bytes.withUnsafeBufferPointer { parse($0, limits: limits) }
    }

    /// The first request in `bytes`, or what is missing, or why it is refused.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: HTTPLimits) -> HTTPParseResult {
        var start = 0
        while start < bytes.count, bytes[start] == lineFeed || bytes[start] == carriageReturn { start += 1 }
        guard let (headerEnd, bodyStart) = headerSectionEnd(bytes, from: start) else {
            // The last byte may be the carriage return that starts the blank line, which the
            // limit does not count: refuse only what is too large however the line ends.
            if bytes.count - 1 > limits.maxHeaderBytes { return .refused(.headersTooLarge, message: "the request line and headers exceed \(limits.maxHeaderBytes) bytes") }
            return .incomplete(expectsContinue: false)
        }
        if headerEnd > limits.maxHeaderBytes { return .refused(.headersTooLarge, message: "the request line and headers exceed \(limits.maxHeaderBytes) bytes") }

        var lines = HeaderLines(bytes: bytes, position: start, end: headerEnd)
        guard let requestLine = lines.next() else { return .refused(.badRequest, message: "empty request") }
        let head: (method: String, target: String, minor: Int)
        switch readRequestLine(bytes, requestLine) {
        case .failure(let refusal): return .refused(refusal.status, message: refusal.message)
        case .success(let line): head = line
        }
        var headers: [HTTPHeader] = []
        while let line = lines.next() {
            switch readHeader(bytes, line) {
            case .failure(let refusal):
                return .refused(refusal.status, message: refusal.message + " on line \(headers.count + 2) of the request")
            case .success(let header): headers.append(header)
            }
        }
        if lines.bareCarriageReturn { return .refused(.badRequest, message: "a carriage return not followed by a line feed") }

        let request = HTTPRequest(method: head.method, target: head.target, minorVersion: head.minor, headers: headers)
        let expectsContinue = request.header("expect")?.lowercased() == "100-continue"
        switch framing(of: request, limits: limits) {
        case .failure(let refusal):
            return .refused(refusal.status, message: refusal.message)
        case .success(.length(let length)):
            guard bytes.count - bodyStart >= length else { return .incomplete(expectsContinue: expectsContinue) }
            var whole = request
            whole.body = Array(bytes[bodyStart..<(bodyStart + length)])
            return .request(whole, length: bodyStart + length)
        case .success(.chunked):
            switch ChunkedBody.read(bytes, from: bodyStart, limits: limits) {
            case .incomplete: return .incomplete(expectsContinue: expectsContinue)
            case .refused(let status, let message): return .refused(status, message: message)
            case .body(let body, let end):
                var whole = request
                whole.body = body
                return .request(whole, length: end)
            }
        }
    }

    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")

    /// Where the header section ends (the index of its blank line's first byte) and the body
    /// starts, or nil when the blank line has not come.
    static func headerSectionEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, Int)? {
        var index = start
        while index < bytes.count {
            guard bytes[index] == lineFeed else { index += 1; continue }
            let next = index + 1
            if next < bytes.count, bytes[next] == lineFeed { return (next, next + 1) }
            if next + 1 < bytes.count, bytes[next] == carriageReturn, bytes[next + 1] == lineFeed { return (next, next + 2) }
            index += 1
        }
        return nil
    }

    /// Why a request is refused.
    struct Refusal: Error {
        var status: HTTPStatus
        var message: String
        static func bad(_ message: String) -> Refusal { Refusal(status: .badRequest, message: message) }
    }

    /// The lines of a header section, each without its line ending.
    struct HeaderLines {
        let bytes: UnsafeBufferPointer<UInt8>
        var position: Int
        let end: Int
        /// Whether some line held a carriage return other than before its line feed.
        var bareCarriageReturn = false

        mutating func next() -> Range<Int>? {
            guard position < end else { return nil }
            var stop = position
            while stop < end, bytes[stop] != HTTPRequestParser.lineFeed { stop += 1 }
            var lineEnd = stop
            if lineEnd > position, bytes[lineEnd - 1] == HTTPRequestParser.carriageReturn { lineEnd -= 1 }
            if bytes[position..<lineEnd].contains(HTTPRequestParser.carriageReturn) { bareCarriageReturn = true }
            defer { position = stop + 1 }
            return position..<lineEnd
        }
    }

    /// `tchar` of RFC 9110: the characters of a method or a field name, by byte.
    static let tokenBytes: [Bool] = (0..<256).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(UInt8(byte))
        }
    }

    static func isToken(_ byte: UInt8) -> Bool { tokenBytes[Int(byte)] }

    static func readRequestLine(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Result<(method: String, target: String, minor: Int), Refusal> {
        // METHOD SP TARGET SP VERSION, each part non-empty, single spaces.
        guard let firstSpace = bytes[line].firstIndex(of: UInt8(ascii: " ")),
              let secondSpace = bytes[(firstSpace + 1)..<line.upperBound].firstIndex(of: UInt8(ascii: " ")),
              !bytes[(secondSpace + 1)..<line.upperBound].contains(UInt8(ascii: " ")) else {
            return .failure(.bad("the request line must be `METHOD TARGET HTTP/1.1`"))
        }
        let method = bytes[line.lowerBound..<firstSpace], target = bytes[(firstSpace + 1)..<secondSpace]
        let version = bytes[(secondSpace + 1)..<line.upperBound]
        guard !method.isEmpty, method.allSatisfy(isToken) else { return .failure(.bad("invalid method")) }
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else { return .failure(.bad("invalid request target")) }
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        let start = version.startIndex
        guard version.count == 8, bytes[start] == UInt8(ascii: "H"), bytes[start + 1] == UInt8(ascii: "T"), bytes[start + 2] == UInt8(ascii: "T"),
              bytes[start + 3] == UInt8(ascii: "P"), bytes[start + 4] == UInt8(ascii: "/"), bytes[start + 6] == UInt8(ascii: "."),
              digits.contains(bytes[start + 5]), digits.contains(bytes[start + 7]) else {
            return .failure(.bad("invalid HTTP version"))
        }
        guard bytes[start + 5] == UInt8(ascii: "1"), bytes[start + 7] <= UInt8(ascii: "1") else {
            return .failure(Refusal(status: .versionNotSupported, message: "only HTTP/1.1 and HTTP/1.0 are served"))
        }
        let text = String(decoding: target, as: UTF8.self)
        guard let origin = target.first == UInt8(ascii: "/") ? text : originForm(text) else {
            return .failure(.bad("the request target must be a path such as `/v1/resolve`"))
        }
        return .success((String(decoding: method, as: UTF8.self), origin, Int(bytes[start + 7] - UInt8(ascii: "0"))))
    }

    /// The path and query of a target in origin form (`/p?q`) or absolute form (`http://h/p?q`).
    static func originForm(_ target: String) -> String? {
        if target.hasPrefix("/") { return target }
        let lowercased = target.lowercased()
        for scheme in ["http://", "https://"] where lowercased.hasPrefix(scheme) {
            let rest = target.dropFirst(scheme.count)
            guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
            return rest[slash] == "/" ? String(rest[slash...]) : "/" + rest[slash...]
        }
        return nil
    }

    static func readHeader(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Result<HTTPHeader, Refusal> {
        guard let first = line.first.map({ bytes[$0] }), first != UInt8(ascii: " "), first != UInt8(ascii: "\t") else {
            return .failure(.bad(line.isEmpty ? "empty header line" : "folded header lines are not accepted"))
        }
        guard let colon = bytes[line].firstIndex(of: UInt8(ascii: ":")) else { return .failure(.bad("a header line without `:`")) }
        let name = bytes[line.lowerBound..<colon]
        guard !name.isEmpty, name.allSatisfy(isToken) else { return .failure(.bad("invalid header name")) }
        var valueStart = colon + 1, valueEnd = line.upperBound
        while valueStart < valueEnd, bytes[valueStart] == 0x20 || bytes[valueStart] == 0x09 { valueStart += 1 }
        while valueEnd > valueStart, bytes[valueEnd - 1] == 0x20 || bytes[valueEnd - 1] == 0x09 { valueEnd -= 1 }
        let value = bytes[valueStart..<valueEnd]
        guard value.allSatisfy({ $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 }) else {
            return .failure(.bad("a control character in header `\(String(decoding: name, as: UTF8.self))`"))
        }
        let lowercased = String(unsafeUninitializedCapacity: name.count) { buffer in
            for (offset, byte) in name.enumerated() {
                buffer[offset] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            }
            return name.count
        }
        return .success(HTTPHeader(name: lowercased, value: String(decoding: value, as: UTF8.self)))
    }

    /// How a request's body is framed.
    enum Framing {
        case length(Int)
        case chunked
    }

    static func framing(of request: HTTPRequest, limits: HTTPLimits) -> Result<Framing, Refusal> {
        // The common case: one plain `Content-Length` and no transfer coding.
        var lengthHeaders = 0, codingHeaders = 0, single = ""
        for header in request.headers {
            if header.name == "content-length" { lengthHeaders += 1; single = header.value }
            if header.name == "transfer-encoding" { codingHeaders += 1 }
        }
        if codingHeaders == 0, lengthHeaders <= 1 {
            guard lengthHeaders == 1 else { return .success(.length(0)) }
            if single.utf8.count <= 12, !single.isEmpty, single.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let count = Int(single) {
                guard count <= limits.maxBodyBytes else {
                    return .failure(Refusal(status: .payloadTooLarge, message: "the body exceeds \(limits.maxBodyBytes) bytes"))
                }
                return .success(.length(count))
            }
        }
        let codings = request.headers.filter { $0.name == "transfer-encoding" }
            .flatMap { $0.value.lowercased().split(separator: ",").map { $0.trimmingBlanks } }
        let lengths = request.headers.filter { $0.name == "content-length" }
            .flatMap { $0.value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingBlanks } }
        if !codings.isEmpty {
            guard lengths.isEmpty else { return .failure(.bad("both `Transfer-Encoding` and `Content-Length`")) }
            guard codings == ["chunked"] else {
                return .failure(Refusal(status: .notImplemented, message: "only the `chunked` transfer coding is accepted"))
            }
            return .success(.chunked)
        }
        guard let length = lengths.first else { return .success(.length(0)) }
        guard lengths.allSatisfy({ $0 == length }), !length.isEmpty, length.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return .failure(.bad("invalid `Content-Length`"))
        }
        guard length.count <= 12, let count = Int(length), count <= limits.maxBodyBytes else {
            return .failure(Refusal(status: .payloadTooLarge, message: "the body exceeds \(limits.maxBodyBytes) bytes"))
        }
        return .success(.length(count))
    }
}
