import XCTest
@testable import TargetingLanguageServer

/// JSON-RPC framing: `Content-Length` headers, split and joined reads, bad headers.
final class MessageFramerTests: XCTestCase {
    func testFramesArriveWholeWhateverTheReadsAre() {
        let bodies = [#"{"a":1}"#, #"{"é":"😀"}"#, "{}"]
        var stream: [UInt8] = []
        for body in bodies { stream += MessageFramer.frame(Array(body.utf8)) }
        for chunk in [1, 3, 7, stream.count] {
            var framer = MessageFramer()
            var got: [String] = []
            var index = 0
            while index < stream.count {
                framer.append(stream[index..<min(index + chunk, stream.count)])
                index += chunk
                while let frame = framer.next() {
                    guard case .message(let body) = frame else { return XCTFail("\(frame)") }
                    got.append(String(decoding: body, as: UTF8.self))
                }
            }
            XCTAssertEqual(got, bodies, "chunk \(chunk)")
        }
    }

    func testHeaderNamesAreCaseInsensitiveAndOtherHeadersIgnored() {
        var framer = MessageFramer()
        framer.append(Array("content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}".utf8))
        XCTAssertEqual(framer.next(), .message(Array("{}".utf8)))
        XCTAssertNil(framer.next())
    }

    func testAHeaderWithoutLengthIsReportedAndSkipped() {
        var framer = MessageFramer()
        framer.append(Array("X: 1\r\n\r\n".utf8) + MessageFramer.frame(Array("[]".utf8)))
        guard case .malformed(let problem) = framer.next() else { return XCTFail() }
        XCTAssertTrue(problem.contains("Content-Length"), problem)
        XCTAssertEqual(framer.next(), .message(Array("[]".utf8)))
    }

    func testAnEndlessHeaderIsDropped() {
        var framer = MessageFramer()
        framer.append([UInt8](repeating: UInt8(ascii: "x"), count: MessageFramer.maxHeaderBytes + 10))
        guard case .malformed = framer.next() else { return XCTFail() }
        framer.append(MessageFramer.frame(Array("1".utf8)))
        XCTAssertEqual(framer.next(), .message(Array("1".utf8)))
    }
}
