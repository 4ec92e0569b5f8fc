import XCTest
@testable import TargetingEngine

final class MD5Tests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }.joined()
    }

    /// Repeating byte pattern (i * 7 + 3) mod 256, so that length boundary tests do not use uniform input.
    private func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
    }

    func testRFC1321TestSuite() {
        // RFC 1321, appendix A.5.
        XCTAssertEqual(MD5.hexDigest(""), "d41d8cd98f00b204e9800998ecf8427e")
        XCTAssertEqual(MD5.hexDigest("a"), "0cc175b9c0f1b6a831c399e269772661")
        XCTAssertEqual(MD5.hexDigest("abc"), "900150983cd24fb0d6963f7d28e17f72")
        XCTAssertEqual(MD5.hexDigest("message digest"), "f96b697d7cb7938d525a2f31aaf161d0")
        XCTAssertEqual(MD5.hexDigest("abcdefghijklmnopqrstuvwxyz"), "c3fcd3d76192e4007dfb496cca67e13b")
        XCTAssertEqual(
            MD5.hexDigest("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
            "d174ab98d277d9f5a5611c2c9f419d9f"
        )
        XCTAssertEqual(
            MD5.hexDigest("12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
            "57edf4a22be3c955ac49da2e2107b67a"
        )
    }

    func testDigestIsSixteenBytesAndMatchesHexDigest() {
        let digest = MD5.digest(Array("abc".utf8))
        XCTAssertEqual(digest.count, 16)
        XCTAssertEqual(digest.first, 0x90)
        XCTAssertEqual(digest.last, 0x72)
        XCTAssertEqual(hex(digest), MD5.hexDigest("abc"))
    }

    func testPaddingBoundaryLengths() {
        // Expected values computed with Python: hashlib.md5(b"a" * n).hexdigest()
        let uniform: [Int: String] = [
            55: "ef1772b6dff9a122358552954ad0df65",
            56: "3b0c8ac703f828b04c6c197006d17218",
            63: "b06521f39153d618550606be297466d5",
            64: "014842d480b571495a4a0363793f7367",
            65: "c743a45e0d2e6a95cb859adae0248435",
        ]
        for (length, expected) in uniform {
            XCTAssertEqual(hex(MD5.digest([UInt8](repeating: UInt8(ascii: "a"), count: length))), expected, "length \(length)")
            XCTAssertEqual(MD5.hexDigest(String(repeating: "a", count: length)), expected, "length \(length)")
        }

        // Expected values computed with Python: hashlib.md5(bytes((i * 7 + 3) % 256 for i in range(n))).hexdigest()
        let patterned: [Int: String] = [
            55: "52c0e574e1198de5fe3f8f11440dcb1b",
            56: "46c9907fc908ee68b1e7b8e71286a518",
            63: "a62f6d59e837867693f042f5b8f5a236",
            64: "7160b8fb5e9e4023d549c3971fbaeead",
            65: "70bd662e7aefbda85a0f7244167b7897",
        ]
        for (length, expected) in patterned {
            XCTAssertEqual(hex(MD5.digest(pattern(length))), expected, "length \(length)")
        }
    }

    func testMillionBytes() {
        // Expected values computed with Python: hashlib.md5(b"a" * 1000000).hexdigest()
        XCTAssertEqual(
            hex(MD5.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))),
            "7707d6ae4e027c70eea2a935c2296f21"
        )
        // Expected values computed with Python: hashlib.md5(bytes(i % 251 for i in range(1000000))).hexdigest()
        XCTAssertEqual(
            hex(MD5.digest((0..<1_000_000).map { UInt8($0 % 251) })),
            "35efddb2811ce9ecbdfa17f18472e604"
        )
    }

    func testHexDigestHashesUTF8() {
        // Expected value computed with Python: hashlib.md5("héllo wörld ✓".encode()).hexdigest()
        XCTAssertEqual(MD5.hexDigest("h\u{E9}llo w\u{F6}rld \u{2713}"), "aa0c8a307a4488bfe0cb56530da19bc3")
        // Canonically equivalent strings with different UTF-8 bytes hash differently.
        XCTAssertNotEqual(MD5.hexDigest("\u{E9}"), MD5.hexDigest("e\u{301}"))
    }
}
