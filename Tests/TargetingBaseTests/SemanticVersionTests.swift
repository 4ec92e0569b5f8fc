import XCTest
@testable import TargetingBase

final class SemanticVersionTests: XCTestCase {
    private func v(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> SemanticVersion {
        guard let version = SemanticVersion(parsing: text) else {
            XCTFail("expected \"\(text)\" to parse", file: file, line: line)
            return SemanticVersion(parsing: "0.0.0")!
        }
        return version
    }

    func testParsesComponents() {
        let version = v("1.22.333-beta.2.x-y+build.007")
        XCTAssertEqual(version.major, "1")
        XCTAssertEqual(version.minor, "22")
        XCTAssertEqual(version.patch, "333")
        XCTAssertEqual(version.preRelease, ["beta", "2", "x-y"])
        XCTAssertEqual(version.build, ["build", "007"])
        XCTAssertTrue(version.isPreRelease)
        XCTAssertEqual(version.description, "1.22.333-beta.2.x-y+build.007")

        // A hyphen inside build metadata does not start a pre-release.
        let built = v("2.0.0+build-7")
        XCTAssertEqual(built.preRelease, [])
        XCTAssertEqual(built.build, ["build-7"])
        XCTAssertFalse(built.isPreRelease)
        XCTAssertEqual(built, v("2.0.0"))
    }

    func testMissingMinorAndPatchCountAsZero() {
        XCTAssertEqual(v("4").description, "4.0.0")
        XCTAssertEqual(v("4.1").description, "4.1.0")
        XCTAssertEqual(v("4.1"), v("4.1.0"))
        XCTAssertEqual(v("4"), v("4.0.0"))
        XCTAssertEqual(v("4-rc.1"), v("4.0.0-rc.1"))
        XCTAssertEqual(v("0.0.0").description, "0.0.0")
    }

    func testLeadingLowercaseVIsAccepted() {
        XCTAssertEqual(v("v1.0.0"), v("1.0.0"))
        XCTAssertEqual(v("v4.1").description, "4.1.0")
        XCTAssertFalse(v("v1.0.0").isPreRelease)
    }

    func testBuildMetadataIgnoredForEqualityAndHash() {
        XCTAssertEqual(v("1.0.0+abc"), v("1.0.0"))
        XCTAssertEqual(v("1.0.0+abc"), v("1.0.0+xyz.1"))
        XCTAssertEqual(v("1.0.0-rc.1+001"), v("1.0.0-rc.1"))
        XCTAssertFalse(v("1.0.0+abc") < v("1.0.0"))
        XCTAssertFalse(v("1.0.0") < v("1.0.0+abc"))
        let set: Set<SemanticVersion> = [v("1.0.0"), v("v1.0.0+abc"), v("1.0"), v("1"), v("1.0.0-rc.1")]
        XCTAssertEqual(set.count, 2)
    }

    func testSpecPrecedenceChain() {
        // Semantic Versioning 2.0.0, item 11.
        let chain = [
            "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta",
            "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0",
        ].map { v($0) }
        for i in chain.indices {
            for j in chain.indices {
                XCTAssertEqual(chain[i] < chain[j], i < j, "\(chain[i]) < \(chain[j])")
                XCTAssertEqual(chain[i] == chain[j], i == j, "\(chain[i]) == \(chain[j])")
            }
        }
        XCTAssertEqual(chain.shuffled().sorted(), chain)
    }

    func testCoreVersionPrecedence() {
        XCTAssertGreaterThan(v("4.10.0"), v("4.2.0"))
        XCTAssertGreaterThanOrEqual(v("4.2.0-beta.2"), v("4.2.0-beta.1"))
        XCTAssertLessThan(v("4.2.0-beta.2"), v("4.2.0"))
        XCTAssertLessThan(v("v4.1"), v("4.2.0"))
        XCTAssertLessThan(v("1.0.0"), v("2.0.0"))
        XCTAssertLessThan(v("2.0.0"), v("2.1.0"))
        XCTAssertLessThan(v("2.1.0"), v("2.1.1"))
        XCTAssertLessThan(v("1.9.9"), v("2.0.0-alpha"))
        XCTAssertGreaterThan(v("2.0.0-alpha"), v("1.99.99"))
    }

    func testPreReleaseIdentifierRules() {
        XCTAssertLessThan(v("1.0.0-2"), v("1.0.0-10"))              // numeric by value
        XCTAssertLessThan(v("1.0.0-999"), v("1.0.0-a"))             // numeric below alphanumeric
        XCTAssertLessThan(v("1.0.0-0"), v("1.0.0--"))               // "-" is alphanumeric
        XCTAssertLessThan(v("1.0.0-Beta"), v("1.0.0-alpha"))        // ASCII: uppercase first
        XCTAssertLessThan(v("1.0.0-alpha-10"), v("1.0.0-alpha-2"))  // alphanumerics compare as text
        XCTAssertLessThan(v("1.0.0-a.b"), v("1.0.0-a.b.c"))         // shorter set is lower
        XCTAssertLessThan(v("1.0.0-1a"), v("1.0.0-a"))              // "1a" is alphanumeric
        XCTAssertLessThan(v("1.0.0-18446744073709551616"), v("1.0.0-99999999999999999999999"))
    }

    func testArbitrarilyLongNumbers() {
        let huge = v("99999999999999999999999.0.0")
        XCTAssertEqual(huge.major, "99999999999999999999999")
        XCTAssertGreaterThan(huge, v("9.0.0"))
        XCTAssertLessThan(huge, v("100000000000000000000000.0.0"))
        XCTAssertLessThan(v("1.18446744073709551615.0"), v("1.18446744073709551616.0"))
        XCTAssertEqual(v("1.0.18446744073709551616"), v("1.0.18446744073709551616+x"))
    }

    func testZeroAndBuildLeadingZerosAreAllowed() {
        XCTAssertNotNil(SemanticVersion(parsing: "0.0.0"))
        XCTAssertNotNil(SemanticVersion(parsing: "1.0.0-0"))
        XCTAssertNotNil(SemanticVersion(parsing: "1.0.0-0a"))       // alphanumeric may start with 0
        XCTAssertNotNil(SemanticVersion(parsing: "1.0.0+007"))
        XCTAssertNotNil(SemanticVersion(parsing: "1.0.0-x.7.z.92+exp.sha.5114f85"))
        XCTAssertNotNil(SemanticVersion(parsing: "1.0.0-alpha+001"))
        XCTAssertNotNil(SemanticVersion(parsing: "1.0.0--"))
    }

    func testUnparsable() {
        let invalid = [
            "4.2.0.1", "V4", "", "4.", "4..1", "1.2.3-", "1.2.3+", " 1.2.3", "1.2.3 ", "1. 2.3",
            "01", "1.01.0", "1.0.00", "1.0.0-01", "1.0.0-alpha.01", "v", "vv1.0.0", ".1.0",
            "1.0.0-alpha..1", "1.0.0-alpha.", "1.0.0+build..1", "1.0.0+build.", "1.0.0-al_pha",
            "1.0.0+b\u{E9}ta", "1.0.0-\u{E9}", "a.b.c", "-1.0.0", "+1.0.0", "1.0.0+a+b", "1.0.0-+a",
            "\u{FF11}.0.0", "1.x.0",
        ]
        for text in invalid {
            XCTAssertNil(SemanticVersion(parsing: text), "\"\(text)\" should not parse")
        }
    }
}
