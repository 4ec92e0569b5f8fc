import TargetingTestSupport
import XCTest
@testable import TargetingServer

final class HTTPRequestParserTests: XCTestCase {
    let limits = HTTPLimits.standard

    func parse(_ text: String, limits: HTTPLimits? = nil) -> HTTPParseResult {
        HTTPRequestParser.parse(Array(text.utf8), limits: limits ?? self.limits)
    }

    /// The request `text` is, and its length; a failure when it is not one.
    func request(_ text: String, limits: HTTPLimits? = nil, file: StaticString = #filePath, line: UInt = #line) -> (HTTPRequest, Int)? {
        let result = parse(text, limits: limits)
        guard case .request(let request, let length) = result else {
            XCTFail("not a request: \(result)", file: file, line: line)
            return nil
        }
        return (request, length)
    }

    /// The status `text` is refused with; a failure when it is not refused.
    func refusal(_ text: String, limits: HTTPLimits? = nil, file: StaticString = #filePath, line: UInt = #line) -> Int? {
        let result = parse(text, limits: limits)
        guard case .refused(let status, let message) = result else {
            XCTFail("not refused: \(result)", file: file, line: line)
            return nil
        }
        XCTAssertFalse(message.isEmpty, file: file, line: line)
        return status.code
    }

    /// Limits like the standard ones with a smaller body and header section.
    func small(body: Int = 1 << 20, headers: Int = 16 << 10) -> HTTPLimits {
        var limits = HTTPLimits.standard
        limits.maxBodyBytes = body
        limits.maxHeaderBytes = headers
        return limits
    }

    // MARK: The request line

    func testReadsARequestWithAContentLengthBody() throws {
        let text = "POST /v1/resolve?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}"
        guard case .request(let request, let length) = parse(text) else { return XCTFail("\(parse(text))") }
        XCTAssertEqual(length, text.utf8.count)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.path, "/v1/resolve")
        XCTAssertEqual(request.query, "x=1")
        XCTAssertEqual(request.header("host"), "a")
        XCTAssertEqual(request.body, Array("{}".utf8))
        XCTAssertTrue(request.keepsAlive)
    }

    func testReadsTheAbsoluteFormAsItsPathAndQuery() {
        let cases = [
            ("GET http://example.com/healthz?x=1 HTTP/1.1\r\n\r\n", "/healthz?x=1", "/healthz", "x=1"),
            ("GET HTTPS://example.com:8443/v1/resolve HTTP/1.1\r\n\r\n", "/v1/resolve", "/v1/resolve", ""),
            ("GET http://example.com HTTP/1.1\r\n\r\n", "/", "/", ""),
            ("GET http://example.com?q=2 HTTP/1.1\r\n\r\n", "/?q=2", "/", "q=2"),
            ("GET /a/b?c HTTP/1.1\r\n\r\n", "/a/b?c", "/a/b", "c"),
        ]
        for (text, target, path, query) in cases {
            guard let (request, _) = request(text) else { continue }
            XCTAssertEqual(request.target, target, text)
            XCTAssertEqual(request.path, path, text)
            XCTAssertEqual(request.query, query, text)
        }
    }

    func testRefusesMalformedRequestLines() {
        let lines = [
            "GET /\r\n\r\n",                      // two parts
            "GET  / HTTP/1.1\r\n\r\n",            // two spaces
            "GET / HTTP/1.1 \r\n\r\n",            // trailing space
            "G(T / HTTP/1.1\r\n\r\n",             // not a token
            " GET / HTTP/1.1\r\n\r\n",            // leading space
            "GET * HTTP/1.1\r\n\r\n",             // asterisk form
            "GET ftp://h/x HTTP/1.1\r\n\r\n",     // another scheme
            "GET v1/resolve HTTP/1.1\r\n\r\n",    // relative
            "GET / http/1.1\r\n\r\n",             // lowercase protocol
            "GET / HTTP/1.10\r\n\r\n",            // too long a version
            "GET / HTTP/1\r\n\r\n",               // no minor version
            "GET / HTTP/x.1\r\n\r\n",             // not a digit
            "GET /\u{7F} HTTP/1.1\r\n\r\n",       // DEL in the target
        ]
        for text in lines {
            XCTAssertEqual(refusal(text), 400, text.debugDescription)
        }
    }

    func testRefusesOtherHTTPVersionsWith505() {
        for version in ["2.0", "1.2", "0.9", "3.0"] {
            XCTAssertEqual(refusal("GET / HTTP/\(version)\r\n\r\n"), 505, version)
        }
        XCTAssertNotNil(request("GET / HTTP/1.0\r\n\r\n"))
    }

    func testKeepAliveFollowsTheVersionAndConnectionHeader() {
        let cases: [(String, Int, Bool)] = [
            ("GET / HTTP/1.1\r\n\r\n", 1, true),
            ("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", 1, false),
            ("GET / HTTP/1.1\r\nConnection: Upgrade, Close\r\n\r\n", 1, false),
            ("GET / HTTP/1.1\r\nConnection: keep-alive\r\n\r\n", 1, true),
            ("GET / HTTP/1.0\r\n\r\n", 0, false),
            ("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", 0, true),
            ("GET / HTTP/1.0\r\nConnection: te\r\nConnection: keep-alive \r\n\r\n", 0, true),
            ("GET / HTTP/1.0\r\nConnection: close\r\n\r\n", 0, false),
        ]
        for (text, minor, keepsAlive) in cases {
            guard let (request, _) = request(text) else { continue }
            XCTAssertEqual(request.minorVersion, minor, text)
            XCTAssertEqual(request.keepsAlive, keepsAlive, text)
        }
    }

    // MARK: Header fields

    func testLowercasesNamesTrimsValuesAndKeepsRepeatedFields() {
        let text = "GET / HTTP/1.1\r\nX-Thing: \t value  with  inner blanks \t\r\nAccept: a\r\naccept: b\r\nX-Empty:\r\nX-Tab: a\tb\r\n\r\n"
        guard let (request, _) = request(text) else { return }
        XCTAssertEqual(request.headers, [
            HTTPHeader(name: "x-thing", value: "value  with  inner blanks"),
            HTTPHeader(name: "accept", value: "a"),
            HTTPHeader(name: "accept", value: "b"),
            HTTPHeader(name: "x-empty", value: ""),
            HTTPHeader(name: "x-tab", value: "a\tb"),
        ])
        XCTAssertEqual(request.header("accept"), "a")
        XCTAssertNil(request.header("X-Thing"), "lookups take lowercase names")
        XCTAssertNil(request.header("missing"))
    }

    func testRefusesMalformedHeaderLines() {
        let headers = [
            "A: b\r\n c",              // folded with a space
            "A: b\r\n\tc",             // folded with a tab
            "A: b\u{01}c",             // control character
            "A: b\u{7F}",              // DEL
            "A: b\u{0}",               // NUL
            "Host a",                  // no colon
            ": b",                     // no name
            "A b: c",                  // space in the name
            "A : b",                   // space before the colon
            "A: b\rc",                 // bare carriage return in a value
            "A\r: b",                  // bare carriage return in a name
        ]
        for header in headers {
            XCTAssertEqual(refusal("GET / HTTP/1.1\r\n\(header)\r\n\r\n"), 400, header.debugDescription)
        }
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\n  \r\n\r\n"), 400, "a line of blanks is a folded line")
    }

    func testHeaderSectionLimitBeforeAndAfterTheBlankLine() {
        let limits = small(headers: 64)
        let line = "GET / HTTP/1.1\r\n"
        // Exactly at the limit: the request line and header lines take 64 bytes.
        let padding = String(repeating: "x", count: 64 - line.utf8.count - "X: \r\n".utf8.count)
        let exact = line + "X: \(padding)\r\n\r\n"
        XCTAssertNotNil(request(exact, limits: limits))
        // One byte more is refused once the blank line arrives …
        let over = line + "X: \(padding)y\r\n\r\n"
        XCTAssertEqual(refusal(over, limits: limits), 431)
        // … and before, as soon as more bytes than the limit came without a blank line.
        XCTAssertEqual(refusal(line + "X: " + String(repeating: "y", count: 80), limits: limits), 431)
        XCTAssertEqual(parse(line + "X: " + String(repeating: "y", count: 40), limits: limits), .incomplete(expectsContinue: false))
        // The standard limit is 16 KiB.
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\nX: " + String(repeating: "y", count: 17_000) + "\r\n\r\n"), 431)
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\nX: " + String(repeating: "y", count: 17_000)), 431)
    }

    func testARequestAtTheHeaderLimitIsIncompleteAtEveryPrefix() {
        let limits = small(headers: 64)
        let line = "GET / HTTP/1.1\r\n"
        for ending in ["\r\n", "\n"] {
            let padding = String(repeating: "x", count: 64 - line.utf8.count - "X: ".utf8.count - ending.utf8.count)
            assertSplitsEverywhere(line + "X: \(padding)\(ending)\(ending)", limits: limits)
        }
    }

    // MARK: Framing

    func testContentLengthRules() {
        guard let (request, length) = request("POST / HTTP/1.1\r\nContent-Length: 3, 3\r\n\r\nabcdef") else { return }
        XCTAssertEqual(request.body, Array("abc".utf8), "equal repeated lengths are one length")
        XCTAssertEqual(length, "POST / HTTP/1.1\r\nContent-Length: 3, 3\r\n\r\nabc".utf8.count)
        XCTAssertNotNil(self.request("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx"))
        XCTAssertEqual(refusal("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxy"), 400)
        XCTAssertEqual(refusal("POST / HTTP/1.1\r\nContent-Length: 1, 2\r\n\r\nxy"), 400)
        for value in ["", "+5", "-1", "0x10", "1 2", "5,"] {
            XCTAssertEqual(refusal("POST / HTTP/1.1\r\nContent-Length: \(value)\r\n\r\n"), 400, value)
        }
        XCTAssertEqual(parse("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nabc"), .incomplete(expectsContinue: false))
    }

    func testATooLargeContentLengthIsRefusedBeforeTheBodyArrives() {
        XCTAssertEqual(refusal("POST / HTTP/1.1\r\nContent-Length: 1048577\r\n\r\n"), 413)
        XCTAssertEqual(refusal("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n"), 413)
        XCTAssertEqual(parse("POST / HTTP/1.1\r\nContent-Length: 1048576\r\n\r\n"), .incomplete(expectsContinue: false))
        XCTAssertEqual(refusal("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n", limits: small(body: 10)), 413)
        XCTAssertEqual(parse("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n", limits: small(body: 10)), .incomplete(expectsContinue: false))
    }

    func testTransferCodingRules() {
        XCTAssertEqual(refusal("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"), 400)
        XCTAssertEqual(refusal("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n"), 400)
        XCTAssertEqual(refusal("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n"), 501)
        XCTAssertEqual(refusal("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"), 501)
        XCTAssertEqual(refusal("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"), 501)
        guard let (request, _) = request("POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n0\r\n\r\n") else { return }
        XCTAssertEqual(request.body, [])
    }

    // MARK: Chunked bodies

    func testJoinsChunksIgnoringExtensionsAndTrailers() {
        let head = "POST /v1/resolve HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        let body = "4\r\nWiki\r\n5;name=value\r\npedia\r\nE ; a; b=\"c\"\r\n in\r\n\r\nchunks.\r\na\r\n0123456789\r\nA\r\nabcdefghij\r\n0\r\nExpires: never\r\nX: y\r\n\r\n"
        let text = head + body + "GET /next HTTP/1.1\r\n\r\n"
        guard let (request, length) = request(text) else { return }
        XCTAssertEqual(String(decoding: request.body, as: UTF8.self), "Wikipedia in\r\n\r\nchunks.0123456789abcdefghij")
        XCTAssertEqual(length, (head + body).utf8.count)
        XCTAssertNil(request.header("expires"), "trailer fields are dropped")
    }

    func testChunkedLineEndingsMayBeBareLineFeeds() {
        guard let (request, _) = request("POST / HTTP/1.1\nTransfer-Encoding: chunked\n\n3\nabc\n0\n\n") else { return }
        XCTAssertEqual(request.body, Array("abc".utf8))
    }

    func testRefusesMalformedChunks() {
        let head = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        XCTAssertEqual(refusal(head + "zz\r\n"), 400, "not hex")
        XCTAssertEqual(refusal(head + "\r\n"), 400, "no size")
        XCTAssertEqual(refusal(head + ";a\r\n"), 400, "only an extension")
        XCTAssertEqual(refusal(head + "-1\r\n"), 400, "negative")
        XCTAssertEqual(refusal(head + "4\r\nWikiXX\r\n0\r\n\r\n"), 400, "a chunk longer than its size")
        XCTAssertEqual(refusal(head + "1;" + String(repeating: "x", count: 1100) + "\r\n"), 400, "a size line over 1 KiB")
        XCTAssertEqual(refusal(head + "1;" + String(repeating: "x", count: 1100)), 400, "a size line over 1 KiB, unfinished")
    }

    func testRefusesOversizedChunkedBodiesBeforeTheyArrive() {
        let head = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        let limits = small(body: 16)
        XCTAssertEqual(refusal(head + "11\r\n", limits: limits), 413, "one chunk over the limit")
        XCTAssertEqual(refusal(head + "10\r\n0123456789abcdef\r\n1\r\n", limits: limits), 413, "the sum over the limit")
        XCTAssertNotNil(request(head + "10\r\n0123456789abcdef\r\n0\r\n\r\n", limits: limits))
        XCTAssertEqual(refusal(head + "fffffffff\r\n"), 413, "more than eight hex digits")
        XCTAssertEqual(refusal(head + "7fffffffffffffff\r\n"), 413)
    }

    func testRefusesChunkFramingFarLargerThanTheBody() {
        let head = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        let limits = small(body: 100)
        // Each one-byte chunk carries a 1000-byte extension: 1,006 bytes of framing per byte of
        // body. Framing may exceed the body by 64 KiB.
        let chunk = "1;" + String(repeating: "e", count: 1000) + "\r\nx\r\n"
        guard let (request, _) = request(head + String(repeating: chunk, count: 60) + "0\r\n\r\n", limits: limits) else { return }
        XCTAssertEqual(request.body, Array(repeating: UInt8(ascii: "x"), count: 60))
        guard case .refused(let status, let message) = parse(head + String(repeating: chunk, count: 67) + "0\r\n\r\n", limits: limits) else {
            return XCTFail("67 one-byte chunks fit the body but not the framing")
        }
        XCTAssertEqual(status.code, 413)
        XCTAssertTrue(message.contains("framing"), message)
    }

    func testRefusesTooLargeTrailers() {
        let head = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
        let limits = small(headers: 64)
        XCTAssertEqual(refusal(head + "X: " + String(repeating: "y", count: 80) + "\r\n\r\n", limits: limits), 431)
        XCTAssertEqual(refusal(head + "X: " + String(repeating: "y", count: 80), limits: limits), 431)
        let exact = "X: " + String(repeating: "y", count: 64 - 5) + "\r\n"
        assertSplitsEverywhere(head + exact + "\r\n", limits: limits)
    }

    func testAChunkSizeLineAtItsLimitIsIncompleteAtEveryPrefix() {
        let head = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        let sizeLine = "1;" + String(repeating: "e", count: ChunkedBody.maxSizeLine - 2)
        assertSplitsEverywhere(head + sizeLine + "\r\nx\r\n0\r\n\r\n")
        XCTAssertEqual(refusal(head + sizeLine + "e\r\nx\r\n0\r\n\r\n"), 400)
    }

    // MARK: Expect, empty lines, line endings

    func testExpectContinueIsReportedOnlyOnceTheHeadersAreWhole() {
        let head = "POST /v1/resolve HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n"
        XCTAssertEqual(parse(head), .incomplete(expectsContinue: false))
        XCTAssertEqual(parse(head + "\r"), .incomplete(expectsContinue: false))
        XCTAssertEqual(parse(head + "\r\n"), .incomplete(expectsContinue: true))
        XCTAssertEqual(parse(head + "\r\n{"), .incomplete(expectsContinue: true))
        XCTAssertNotNil(request(head + "\r\n{}"))
        let chunked = "POST / HTTP/1.1\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n"
        XCTAssertEqual(parse(chunked), .incomplete(expectsContinue: true))
        XCTAssertEqual(parse(chunked + "2\r\n{"), .incomplete(expectsContinue: true))
        XCTAssertEqual(parse("POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\n"), .incomplete(expectsContinue: false))
        XCTAssertEqual(parse("POST / HTTP/1.1\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n"), .incomplete(expectsContinue: false))
    }

    func testSkipsEmptyLinesBeforeARequest() {
        let text = "\r\n\n\r\nGET /healthz HTTP/1.1\r\n\r\n"
        guard let (request, length) = request(text) else { return }
        XCTAssertEqual(request.path, "/healthz")
        XCTAssertEqual(length, text.utf8.count)
        XCTAssertEqual(parse("\r\n\r\n"), .incomplete(expectsContinue: false))
        XCTAssertEqual(parse(""), .incomplete(expectsContinue: false))
    }

    func testEmptyLinesBeforeARequestCountTowardTheHeaderLimit() {
        let limits = small(headers: 64)
        XCTAssertEqual(refusal(String(repeating: "\r\n", count: 40), limits: limits), 431, "an endless stream of empty lines")
        XCTAssertEqual(refusal(String(repeating: "\n", count: 70), limits: limits), 431)
        XCTAssertEqual(refusal(String(repeating: "\r\n", count: 20) + "GET / HTTP/1.1\r\nX: " + String(repeating: "y", count: 10) + "\r\n\r\n", limits: limits), 431)
        let fits = String(repeating: "\r\n", count: 10) + "GET / HTTP/1.1\r\nX: " + String(repeating: "y", count: 10) + "\r\n\r\n"
        assertSplitsEverywhere(fits, limits: limits)
    }

    func testAcceptsLineFeedOnlyLineEndings() {
        let text = "POST /v1/resolve HTTP/1.1\nHost: a\nContent-Length: 2\n\n{}"
        guard let (request, length) = request(text) else { return }
        XCTAssertEqual(request.header("host"), "a")
        XCTAssertEqual(request.body, Array("{}".utf8))
        XCTAssertEqual(length, text.utf8.count)
    }

    // MARK: Split and pipelined input

    /// Every strict prefix of `text` is incomplete, and the whole is a request of its length.
    func assertSplitsEverywhere(_ text: String, limits: HTTPLimits? = nil, file: StaticString = #filePath, line: UInt = #line) {
        let bytes = Array(text.utf8)
        let whole = HTTPRequestParser.parse(bytes, limits: limits ?? self.limits)
        guard case .request(_, let length) = whole else { return XCTFail("not a request: \(whole)", file: file, line: line) }
        XCTAssertEqual(length, bytes.count, file: file, line: line)
        for end in 0..<bytes.count {
            let result = HTTPRequestParser.parse(Array(bytes[..<end]), limits: limits ?? self.limits)
            guard case .incomplete = result else {
                return XCTFail("the first \(end) bytes give \(result)", file: file, line: line)
            }
        }
    }

    func testEveryPrefixIsIncompleteAndTheWholeIsTheRequest() {
        let requests = [
            "POST /v1/resolve?x=%20 HTTP/1.1\r\nHost: a\r\nContent-Length: 13\r\n\r\n{\"profile\":1}",
            "POST /v1/resolve HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nWiki\r\n5\r\npedia\r\n0\r\nT: v\r\n\r\n",
            "POST / HTTP/1.1\nTransfer-Encoding: chunked\n\n3\nabc\n0\n\n",
            "\r\n\r\nGET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
            "GET http://h/readyz HTTP/1.1\nA: b\n\n",
            "POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc",
        ]
        for text in requests {
            assertSplitsEverywhere(text)
        }
    }

    func testPipelinedRequestsAreReadOneAfterAnother() {
        let first = "POST /v1/resolve HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}"
        let second = "POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
        let third = "GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n"
        var rest = Array((first + second + third).utf8)
        var paths: [String] = []
        var lengths: [Int] = []
        while !rest.isEmpty {
            guard case .request(let request, let length) = HTTPRequestParser.parse(rest, limits: limits) else { return XCTFail("\(rest)") }
            paths.append(request.path)
            lengths.append(length)
            rest.removeFirst(length)
        }
        XCTAssertEqual(paths, ["/v1/resolve", "/ofrep/v1/evaluate/flags", "/healthz"])
        XCTAssertEqual(lengths, [first.utf8.count, second.utf8.count, third.utf8.count])
        // A partial second request after a whole first one: the first is read, the rest waits.
        let partial = Array((first + "GET /heal").utf8)
        guard case .request(_, let length) = HTTPRequestParser.parse(partial, limits: limits) else { return XCTFail() }
        XCTAssertEqual(HTTPRequestParser.parse(Array(partial[length...]), limits: limits), .incomplete(expectsContinue: false))
    }

    func testTheBufferPointerAndArrayFormsAgree() {
        let bytes = Array("xxPOST / HTTP/1.1\r\nContent-Length: 1\r\n\r\nab".utf8)
        let viaPointer = bytes.withUnsafeBufferPointer { HTTPRequestParser.parse(UnsafeBufferPointer(rebasing: $0[2...]), limits: limits) }
        XCTAssertEqual(viaPointer, HTTPRequestParser.parse(Array(bytes[2...]), limits: limits))
        guard case .request(let request, let length) = viaPointer else { return XCTFail() }
        XCTAssertEqual(request.body, [UInt8(ascii: "a")])
        XCTAssertEqual(length, bytes.count - 3)
    }

    // MARK: Random input

    func testRandomBytesNeverCrashAndKeepTheInvariants() {
        var random = ReferenceDraw.Generator(seed: 0x5EED_2026)
        let pieces = ["GET", "POST", " ", "/", "/v1/resolve", "?a=b", " HTTP/1.1", " HTTP/1.0", " HTTP/2.0", "\r\n", "\n", "\r",
                      "Host: a", "Content-Length: ", "Transfer-Encoding: chunked", "Expect: 100-continue", ":", "0", "1", "5",
                      "a", "ff", ";x", "Connection: close", "\t", "\u{0}", "\u{7F}", "{}", "%", "é"].map { Array($0.utf8) }
        let limits = small(body: 64, headers: 128)
        for round in 0..<4000 {
            var bytes: [UInt8] = []
            let count = Int(random.next() % 40)
            for _ in 0..<count {
                if random.next() % 4 == 0 {
                    bytes.append(UInt8(truncatingIfNeeded: random.next()))
                } else {
                    bytes += pieces[Int(random.next() % UInt64(pieces.count))]
                }
            }
            let result = HTTPRequestParser.parse(bytes, limits: limits)
            switch result {
            case .request(let request, let length):
                XCTAssertTrue(length > 0 && length <= bytes.count, "round \(round)")
                XCTAssertLessThanOrEqual(request.body.count, limits.maxBodyBytes)
                XCTAssertTrue(request.path.hasPrefix("/"), "round \(round)")
                // Cut anywhere, the prefix is incomplete or the same request.
                let cut = Int(random.next() % UInt64(bytes.count + 1))
                switch HTTPRequestParser.parse(Array(bytes[..<cut]), limits: limits) {
                case .incomplete: break
                case .request(let again, let againLength):
                    XCTAssertEqual(again, request, "round \(round)")
                    XCTAssertEqual(againLength, length, "round \(round)")
                case .refused(let status, _):
                    XCTFail("round \(round): a prefix of a request is refused with \(status.code)")
                }
            case .refused(let status, let message):
                XCTAssertTrue([400, 413, 431, 501, 505].contains(status.code), "round \(round)")
                XCTAssertFalse(message.isEmpty)
            case .incomplete:
                break
            }
        }
    }

    // MARK: Decoding the target

    func testPathSegmentsArePercentDecoded() {
        func segments(_ target: String) -> [String]? { HTTPRequest(method: "GET", target: target).pathSegments }
        XCTAssertEqual(segments("/v1/profiles/u%201%2Fx/decisions"), ["v1", "profiles", "u 1/x", "decisions"])
        XCTAssertEqual(segments("/a+b/%C3%A9%c3%a9"), ["a+b", "éé"], "a plus stays a plus in a path")
        XCTAssertEqual(segments("/"), [""])
        XCTAssertEqual(segments("/a//b/"), ["a", "", "b", ""])
        XCTAssertNil(segments("/a%zz"))
        XCTAssertNil(segments("/a%4"))
        XCTAssertNil(segments("/a%"))
        XCTAssertNil(segments("/%E9"), "not UTF-8")
        XCTAssertNil(segments("/%C3"), "a truncated UTF-8 sequence")
    }

    func testQueryItemsArePercentDecoded() {
        func items(_ target: String) -> [String]? {
            HTTPRequest(method: "GET", target: target).queryItems?.map { "\($0.name)=\($0.value)" }
        }
        XCTAssertEqual(items("/p?placement=a&placement=b%20c&now=2026+01"), ["placement=a", "placement=b c", "now=2026 01"])
        XCTAssertEqual(items("/p?flag&a=1=2&&b="), ["flag=", "a=1=2", "b="])
        XCTAssertEqual(items("/p?%70lacement=%2B"), ["placement=+"])
        XCTAssertEqual(items("/p"), [])
        XCTAssertEqual(items("/p?"), [])
        XCTAssertNil(items("/p?a=%G0"))
        XCTAssertNil(items("/p?%ff=1"))
    }

    // MARK: Writing an answer

    func testResponseBytesCarryLengthAndConnection() {
        let response = HTTPResponse.json(.ok, Array(#"{"a":1}"#.utf8), headers: [HTTPHeader(name: "ETag", value: "\"v\"")])
        var bytes: [UInt8] = []
        response.append(to: &bytes, keepAlive: true)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self),
                       "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nETag: \"v\"\r\nContent-Length: 7\r\n\r\n{\"a\":1}")
        bytes = []
        response.append(to: &bytes, keepAlive: false, omitBody: true)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self),
                       "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nETag: \"v\"\r\nContent-Length: 7\r\nConnection: close\r\n\r\n")
        bytes = []
        HTTPResponse(status: .notModified, headers: [HTTPHeader(name: "ETag", value: "\"v\"")], body: Array("x".utf8)).append(to: &bytes, keepAlive: true)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "HTTP/1.1 304 Not Modified\r\nETag: \"v\"\r\n\r\n")
    }

    func testAMalformedHeaderIsNamedByItsLine() {
        let text = "GET /healthz HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n"
        guard case .refused(let status, let message) = HTTPRequestParser.parse(Array(text.utf8), limits: .standard) else {
            return XCTFail("the request is read")
        }
        XCTAssertEqual(status, .badRequest)
        XCTAssertEqual(message, "invalid header name on line 3 of the request")
    }
}
