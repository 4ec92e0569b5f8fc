import XCTest
@testable import TargetingServer

final class BearerTokenTests: XCTestCase {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testConstantTimeEqualIsEquality() {
        XCTAssertTrue(BearerToken.constantTimeEqual(bytes("token-1"), bytes("token-1")))
        XCTAssertFalse(BearerToken.constantTimeEqual(bytes("token-2"), bytes("token-1")), "one byte differs")
        XCTAssertFalse(BearerToken.constantTimeEqual(bytes("Token-1"), bytes("token-1")), "the first byte differs")
        XCTAssertFalse(BearerToken.constantTimeEqual(bytes("token-"), bytes("token-1")), "a prefix")
        XCTAssertFalse(BearerToken.constantTimeEqual(bytes("token-11"), bytes("token-1")), "longer")
        XCTAssertFalse(BearerToken.constantTimeEqual([], bytes("token-1")), "empty given")
        XCTAssertFalse(BearerToken.constantTimeEqual(bytes("x"), []), "empty expected")
        XCTAssertFalse(BearerToken.constantTimeEqual([], []), "an empty token authorizes nothing")
        // A byte equal to the complement of the expected one must not look like a missing byte.
        XCTAssertFalse(BearerToken.constantTimeEqual([~UInt8(ascii: "a")], [UInt8(ascii: "a"), UInt8(ascii: "b")]))
        XCTAssertFalse(BearerToken.constantTimeEqual([0xFF, 0x00], [0x00]))
        for length in 1...40 {
            let token = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            XCTAssertTrue(BearerToken.constantTimeEqual(token, token))
            for index in token.indices {
                var other = token
                other[index] ^= 0x01
                XCTAssertFalse(BearerToken.constantTimeEqual(other, token), "byte \(index) of \(length)")
            }
            XCTAssertFalse(BearerToken.constantTimeEqual(Array(token.dropLast()), token))
            XCTAssertFalse(BearerToken.constantTimeEqual(token + [0], token))
        }
    }

    func testReadsTheAuthorizationHeader() {
        let token = bytes("abc123")
        XCTAssertTrue(BearerToken.authorizes("Bearer abc123", token: token))
        XCTAssertTrue(BearerToken.authorizes("bearer abc123", token: token))
        XCTAssertTrue(BearerToken.authorizes("Bearer    abc123", token: token))
        XCTAssertFalse(BearerToken.authorizes(nil, token: token))
        XCTAssertFalse(BearerToken.authorizes("", token: token))
        XCTAssertFalse(BearerToken.authorizes("abc123", token: token))
        XCTAssertFalse(BearerToken.authorizes("Basic abc123", token: token))
        XCTAssertFalse(BearerToken.authorizes("Bearerabc123", token: token))
        XCTAssertFalse(BearerToken.authorizes("Bearer abc1234", token: token))
        XCTAssertFalse(BearerToken.authorizes("Bearer abc12", token: token))
        XCTAssertFalse(BearerToken.authorizes("Bearer ABC123", token: token))
        XCTAssertFalse(BearerToken.authorizes("Bearer abc123 ", token: token))
    }
}
