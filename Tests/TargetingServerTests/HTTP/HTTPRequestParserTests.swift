import XCTest
@testable import TargetingServer

final class HTTPRequestParserTests: XCTestCase {
    let limits = HTTPLimits.standard

    func parse(_ text: String) -> HTTPParseResult {
        HTTPRequestParser.parse(Array(text.utf8), limits: limits)
    }

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
}
