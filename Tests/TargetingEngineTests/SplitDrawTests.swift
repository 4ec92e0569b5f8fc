import XCTest
@testable import TargetingEngine

final class SplitDrawTests: XCTestCase {
    private let welcomeVariants: [(weight: Int, sortKey: String)] = [
        (60, "flow_welcome_a"),
        (30, "flow_welcome_b"),
        (10, ""),
    ]

    func testBucketMatchesReferenceValues() {
        // Expected values computed with Python:
        // int.from_bytes(hashlib.md5(f"{s}-{p}".encode()).digest()[8:], "big") % 100
        let cases: [(split: String, profile: String, bucket: Int)] = [
            ("welcome_test_v1", "user-0", 67),
            ("welcome_test_v1", "user-1", 30),
            ("welcome_test_v1", "user-2", 31),
            ("welcome_test_v1", "user-3", 39),
            ("welcome_test_v1", "user-4", 72),
            ("welcome_test_v1", "user-5", 42),
            ("welcome_test_v1", "user-6", 83),
            ("welcome_test_v1", "user-7", 4),
            ("welcome_test_v1", "user-8", 30),
            ("welcome_test_v1", "user-9", 52),
            ("welcome_test_v1", "user-10", 99),
            ("welcome_test_v1", "user-11", 69),
            ("paywall_ab", "00000000-0000-0000-0000-000000000000", 48),
            ("paywall_ab", "3f2a9c4e-1b7d-4e8a-9f0c-5d6e7a8b9c0d", 33),
            ("onboarding", "alice", 63),
            ("onboarding", "bob", 15),
            ("onboarding", "", 67),
            ("", "profile", 42),
            ("", "", 35),
            ("split-with-dash", "id-with-dash", 4),
            ("a", "b", 80),
            ("price_test_2026", "ABCDEF", 1),
            (String(repeating: "x", count: 100), String(repeating: "y", count: 100), 95),
        ]
        for (split, profile, expected) in cases {
            XCTAssertEqual(SplitDraw.bucket(splitID: split, profileID: profile), expected, "\(split)-\(profile)")
        }
    }

    func testBucketWithNonASCIIProfileIDs() {
        // Expected values computed with Python:
        // int.from_bytes(hashlib.md5(f"{s}-{p}".encode()).digest()[8:], "big") % 100
        XCTAssertEqual(SplitDraw.bucket(splitID: "prix", profileID: "jos\u{E9}"), 63)
        XCTAssertEqual(SplitDraw.bucket(splitID: "prix", profileID: "Zo\u{EB}"), 36)
        XCTAssertEqual(SplitDraw.bucket(splitID: "\u{65E5}\u{672C}", profileID: "\u{30E6}\u{30FC}\u{30B6}\u{30FC}"), 96)
        XCTAssertEqual(SplitDraw.bucket(splitID: "emoji", profileID: "\u{1F469}\u{200D}\u{1F4BB}"), 32)
    }

    func testBucketUsesBytesNotCanonicalEquivalence() {
        // Expected values computed with Python:
        // int.from_bytes(hashlib.md5(f"{s}-{p}".encode()).digest()[8:], "big") % 100
        // with p = "jos\u00e9" (precomposed) and p = "jose\u0301" (decomposed).
        let precomposed = SplitDraw.bucket(splitID: "prix", profileID: "jos\u{E9}")
        let decomposed = SplitDraw.bucket(splitID: "prix", profileID: "jose\u{301}")
        XCTAssertEqual("jos\u{E9}", "jose\u{301}")  // Equal as Swift strings...
        XCTAssertEqual(precomposed, 63)              // ...but not as bytes.
        XCTAssertEqual(decomposed, 79)
    }

    func testBucketRange() {
        for i in 0..<500 {
            let value = SplitDraw.bucket(splitID: "range", profileID: "p\(i)")
            XCTAssertTrue((0..<100).contains(value))
        }
    }

    func testWelcomeSplitKnownAssignments() {
        // Verified with Python using the same sort-and-subtract algorithm.
        let a = 0, b = 1, nothing = 2
        let expected = [a, b, b, b, a, a, a, nothing, b, a, a, a]
        for (i, variant) in expected.enumerated() {
            XCTAssertEqual(
                SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: "user-\(i)", variants: welcomeVariants),
                variant,
                "user-\(i)"
            )
        }
    }

    func testDeclarationOrderDoesNotMatter() {
        let reversed = Array(welcomeVariants.reversed())
        for i in 0..<12 {
            let original = SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: "user-\(i)", variants: welcomeVariants)
            let other = SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: "user-\(i)", variants: reversed)
            XCTAssertEqual(welcomeVariants[original].sortKey, reversed[other].sortKey, "user-\(i)")
        }
    }

    func testEqualWeightsTieBreakByUTF8Bytes() {
        // Sorted order is "" < "Z" < "a" < "é" (0x5A < 0x61 < 0xC3 0xA9), so the ranges are
        // 0..<25 -> "", 25..<50 -> "Z", 50..<75 -> "a", 75..<100 -> "é".
        let variants: [(weight: Int, sortKey: String)] = [(25, "\u{E9}"), (25, "a"), (25, "Z"), (25, "")]
        XCTAssertEqual(SplitDraw.sortedIndices(variants), [3, 2, 1, 0])
        // Buckets: user-7 -> 4, user-1 -> 30, user-0 -> 67, user-6 -> 83.
        XCTAssertEqual(SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: "user-7", variants: variants), 3)
        XCTAssertEqual(SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: "user-1", variants: variants), 2)
        XCTAssertEqual(SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: "user-0", variants: variants), 1)
        XCTAssertEqual(SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: "user-6", variants: variants), 0)
    }

    func testTieBreakIgnoresUnicodeNormalisation() {
        // As bytes "e\u{301}" (65 CC 81) sorts before "f" (66), although as a Swift String it is "é" > "f".
        let variants: [(weight: Int, sortKey: String)] = [(50, "f"), (50, "e\u{301}")]
        XCTAssertEqual(SplitDraw.sortedIndices(variants), [1, 0])
        XCTAssertEqual(SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: "user-7", variants: variants), 1)  // r = 4
        XCTAssertEqual(SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: "user-0", variants: variants), 0)  // r = 67
    }

    func testPrefixKeySortsFirst() {
        let variants: [(weight: Int, sortKey: String)] = [(50, "flow_ab"), (50, "flow_a")]
        XCTAssertEqual(SplitDraw.sortedIndices(variants), [1, 0])
    }

    func testWeightBeatsKey() {
        let variants: [(weight: Int, sortKey: String)] = [(10, "z"), (90, "a")]
        XCTAssertEqual(SplitDraw.sortedIndices(variants), [0, 1])
        // r = 4 falls into the first sorted variant (weight 10), r = 67 into the second.
        XCTAssertEqual(SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: "user-7", variants: variants), 0)
        XCTAssertEqual(SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: "user-0", variants: variants), 1)
    }

    func testBoundaryExactlyAtWeight() {
        // r = 30 for user-1: 30 - 30 = 0 is not below zero, so the next variant is chosen.
        let variants: [(weight: Int, sortKey: String)] = [(30, "low"), (70, "high")]
        XCTAssertEqual(SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: "user-1", variants: variants), 1)
        // r = 30 with a first weight of 31 stays in the first variant.
        let wider: [(weight: Int, sortKey: String)] = [(31, "low"), (69, "high")]
        XCTAssertEqual(SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: "user-1", variants: wider), 0)
    }

    func testSingleVariantAlwaysChosen() {
        for i in 0..<20 {
            XCTAssertEqual(SplitDraw.chooseVariant(splitID: "s", profileID: "p\(i)", variants: [(100, "only")]), 0)
        }
    }

    func testWeightsBelowHundredFallBackToLastSortedVariant() {
        // r = 99 for user-10; weights only cover 0..<30.
        let variants: [(weight: Int, sortKey: String)] = [(20, "b"), (10, "a")]
        XCTAssertEqual(SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: "user-10", variants: variants), 0)
        // r = 4 for user-7 is still covered by the first sorted variant (weight 10).
        XCTAssertEqual(SplitDraw.chooseVariant(splitID: "welcome_test_v1", profileID: "user-7", variants: variants), 1)
    }
}
