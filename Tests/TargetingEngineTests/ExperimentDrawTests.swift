import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingEngine
@testable import TargetingProfiles

/// the draw, checked against `ReferenceDraw`, an MD5 and variant walk written separately
/// in the tests: for many ids, the variant every experiment decides equals the one computed here
/// from `"<experiment>-<key value>"`, with ties in weight broken by variant name.
final class ExperimentDrawTests: XCTestCase {
    static let now = ISO8601DateFormatter().date(from: "2026-11-29T12:00:00Z")!

    // MARK: - The reference MD5 itself

    func testReferenceMD5MatchesRFC1321TestSuite() {
        // RFC 1321, appendix A.5.
        let suite: [(String, String)] = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
            (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
        ]
        for (message, digest) in suite {
            XCTAssertEqual(ReferenceDraw.hex(ReferenceDraw.md5(Array(message.utf8))), digest, message)
        }
    }

    func testReferenceMD5AcrossBlockBoundaries() {
        // Lengths around the 55/56/64-byte padding edges give distinct digests, all 16 bytes, and
        // agree with the engine's MD5 (itself tested against the RFC in MD5Tests).
        var seen: Set<String> = []
        for length in [54, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000] {
            let message = Array(String(repeating: "x", count: length).utf8)
            let digest = ReferenceDraw.md5(message)
            XCTAssertEqual(digest.count, 16)
            XCTAssertEqual(digest, MD5.digest(message), "\(length)")
            XCTAssertTrue(seen.insert(ReferenceDraw.hex(digest)).inserted, "\(length)")
        }
    }

    // MARK: - Buckets and variants against the engine

    /// Experiments whose declared order differs from the draw order, with ties in weight.
    private let rules = """
    attribute account: string
    experiment tie_two { 50% b 50% a }
    experiment three { 40% alpha 30% zeta 30% beta }
    experiment cased { 30% alpha 30% Zed 40% _mid }
    experiment uneven { 70% large 10% small 20% medium }
    experiment keyed by profile.customer_user_id { 50% second 50% first }
    experiment by_account by account { 25% y 50% w 25% x }
    placement p_tie { everyone -> tie_two { a -> flow "tie_a" b -> flow "tie_b" } }
    placement p_three { everyone -> three { alpha -> flow "three_alpha" zeta -> flow "three_zeta" beta -> flow "three_beta" } }
    placement p_cased { everyone -> cased { alpha -> flow "cased_alpha" Zed -> flow "cased_Zed" _mid -> flow "cased_mid" } }
    placement p_uneven { everyone -> uneven { large -> paywall "u_large" small -> paywall "u_small" medium -> paywall "u_medium" } }
    placement p_keyed { everyone -> keyed { first -> flow "k_first" second -> flow "k_second" } }
    placement p_account { everyone -> by_account { w -> flow "acc_w" x -> flow "acc_x" y -> flow "acc_y" } }
    """

    /// Each experiment as declared (weight, name), and the prefix of its placement's ids.
    private let experiments: [(name: String, placement: String, prefix: String, variants: [(weight: Int, name: String)])] = [
        ("tie_two", "p_tie", "tie_", [(50, "b"), (50, "a")]),
        ("three", "p_three", "three_", [(40, "alpha"), (30, "zeta"), (30, "beta")]),
        ("cased", "p_cased", "cased_", [(30, "alpha"), (30, "Zed"), (40, "_mid")]),
        ("uneven", "p_uneven", "u_", [(70, "large"), (10, "small"), (20, "medium")]),
    ]

    /// Ids of several shapes: plain, UUID-like, non-ASCII, with dashes, empty-looking.
    private func ids(_ count: Int) -> [String] {
        var generator = ReferenceDraw.Generator(seed: 0x5EED_0011)
        var ids: [String] = []
        for index in 0..<count {
            switch index % 5 {
            case 0: ids.append("user-\(index)")
            case 1: ids.append(generator.string(8) + "-" + generator.string(4) + "-" + generator.string(12))
            case 2: ids.append("jos\u{E9}-\(index)")
            case 3: ids.append("\u{30E6}\u{30FC}\u{30B6}\u{30FC}\(index)")
            default: ids.append(generator.string(Int(generator.next() % 40) + 1))
            }
        }
        return ids
    }

    private func profile(_ json: String) -> Profile {
        try! ProfileReader.read(Array(json.utf8)).get()
    }

    private func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    func testEngineBucketEqualsReferenceBucket() {
        for name in ["pricing_q4", "tie_two", "q4_holdout", "x"] {
            for id in ids(400) {
                XCTAssertEqual(SplitDraw.bucket(splitID: name, profileID: id), ReferenceDraw.bucket(name, id), "\(name)-\(id)")
            }
        }
    }

    func testReferenceWalkOnKnownBuckets() {
        // The walk itself, on buckets at each boundary: 30/30/40 sorted is beta, zeta, alpha.
        let three: [(weight: Int, name: String)] = [(40, "alpha"), (30, "zeta"), (30, "beta")]
        var found: [Int: String] = [:]
        for id in ids(2_000) {
            found[ReferenceDraw.bucket("three", id)] = ReferenceDraw.variant("three", id, three)
        }
        for (bucket, variant) in found {
            XCTAssertEqual(variant, bucket < 30 ? "beta" : bucket < 60 ? "zeta" : "alpha", "bucket \(bucket)")
        }
        XCTAssertEqual(Set(found.keys).count, 100, "2,000 ids reach every bucket")
    }

    func testEveryExperimentDecidesTheReferenceVariant() throws {
        let ruleSet = try RuleSet(source: rules, fileName: "draw.rules")
        var chosen: [String: Set<String>] = [:]
        for id in ids(2_000) {
            let decisions = ruleSet.resolveAll(for: profile("{\"id\":\(quoted(id))}"), at: ExperimentDrawTests.now)
            for experiment in experiments {
                let expected = ReferenceDraw.variant(experiment.name, id, experiment.variants)
                guard let decision = decisions.first(where: { $0.placement == experiment.placement }) else {
                    return XCTFail("no decision for \(experiment.placement)")
                }
                XCTAssertEqual(decision.experiment, experiment.name, id)
                XCTAssertEqual(decision.variant, expected, "\(experiment.name)-\(id)")
                let shown = experiment.prefix + (expected == "_mid" ? "mid" : expected)
                XCTAssertEqual(decision.outcome?.id, shown, "\(experiment.name)-\(id)")
                XCTAssertNil(decision.split)
                XCTAssertFalse(decision.heldOut)
                chosen[experiment.name, default: []].insert(expected)
            }
        }
        // Every variant was drawn for some id, so a wrong order would have shown.
        for experiment in experiments {
            XCTAssertEqual(chosen[experiment.name], Set(experiment.variants.map(\.name)), experiment.name)
        }
    }

    func testTiesAreBrokenByNameBytesNotDeclarationOrder() throws {
        // `tie_two` declares b before a, `cased` declares alpha before Zed ("Z" < "a" as bytes).
        let ruleSet = try RuleSet(source: rules, fileName: "draw.rules")
        var lowTie = 0, lowCased = 0
        for id in ids(1_000) {
            let decisions = ruleSet.resolveAll(for: profile("{\"id\":\(quoted(id))}"), at: ExperimentDrawTests.now)
            let tieBucket = ReferenceDraw.bucket("tie_two", id)
            if tieBucket < 50 {
                lowTie += 1
                XCTAssertEqual(decisions.first { $0.placement == "p_tie" }?.variant, "a", id)
            }
            let casedBucket = ReferenceDraw.bucket("cased", id)
            if casedBucket < 30 {
                lowCased += 1
                XCTAssertEqual(decisions.first { $0.placement == "p_cased" }?.variant, "Zed", id)
            } else if casedBucket < 60 {
                XCTAssertEqual(decisions.first { $0.placement == "p_cased" }?.variant, "alpha", id)
            }
        }
        XCTAssertGreaterThan(lowTie, 100)
        XCTAssertGreaterThan(lowCased, 100)
    }

    func testKeyedExperimentsDrawOnTheKeysValue() throws {
        let ruleSet = try RuleSet(source: rules, fileName: "draw.rules")
        var generator = ReferenceDraw.Generator(seed: 42)
        var seen: Set<String> = []
        for index in 0..<1_000 {
            let customer = "cust-" + generator.string(10)
            let account = "acct-\(index)-" + generator.string(3)
            let json = "{\"id\":\"id-\(index)\",\"customer_user_id\":\(quoted(customer)),\"custom_attributes\":{\"account\":\(quoted(account))}}"
            let decisions = ruleSet.resolveAll(for: profile(json), at: ExperimentDrawTests.now)
            let keyed = ReferenceDraw.variant("keyed", customer, [(50, "second"), (50, "first")])
            XCTAssertEqual(decisions.first { $0.placement == "p_keyed" }?.variant, keyed, customer)
            XCTAssertEqual(decisions.first { $0.placement == "p_keyed" }?.flowID, "k_" + keyed, customer)
            let byAccount = ReferenceDraw.variant("by_account", account, [(25, "y"), (50, "w"), (25, "x")])
            XCTAssertEqual(decisions.first { $0.placement == "p_account" }?.variant, byAccount, account)
            seen.insert(keyed)
            seen.insert(byAccount)
        }
        XCTAssertEqual(seen, ["first", "second", "w", "x", "y"])
    }

    func testTreeAndFlatEvaluatorsDrawTheSame() throws {
        let loaded = LoadedRules(sources: [SourceFile(path: "draw.rules", text: rules)])
        let program = try XCTUnwrap(loaded.program)
        let now: Int64 = 1_796_040_000_000
        for id in ids(500) {
            let profile = profile("{\"id\":\(quoted(id)),\"customer_user_id\":\(quoted("c" + id)),\"custom_attributes\":{\"account\":\"a\"}}")
            var evaluator = Evaluator(program: program, profile: profile, now: now)
            for index in program.placements.indices {
                XCTAssertEqual(try evaluator.resolve(placement: index, profileID: profile.id).get(),
                               try program.decide(placement: index, for: profile, now: now).get(), id)
            }
        }
    }

    func testExplainShowsTheReferenceBucket() throws {
        let ruleSet = try RuleSet(source: rules, fileName: "draw.rules")
        for id in ["user-1", "user-2", "jos\u{E9}"] {
            let explanation = try ruleSet.explain("p_three", for: profile("{\"id\":\(quoted(id))}"), at: ExperimentDrawTests.now)
            let bucket = ReferenceDraw.bucket("three", id)
            let variant = ReferenceDraw.variant("three", id, [(40, "alpha"), (30, "zeta"), (30, "beta")])
            XCTAssertEqual(explanation.rows.first?.draw, "bucket \(bucket) -> \(variant)", id)
        }
        let keyed = try ruleSet.explain("p_keyed", for: profile(#"{"id":"u1","customer_user_id":"c1"}"#), at: ExperimentDrawTests.now)
        let bucket = ReferenceDraw.bucket("keyed", "c1")
        XCTAssertEqual(keyed.rows.first?.draw, "bucket \(bucket) on profile.customer_user_id \"c1\" -> \(ReferenceDraw.variant("keyed", "c1", [(50, "second"), (50, "first")]))")
    }
}
