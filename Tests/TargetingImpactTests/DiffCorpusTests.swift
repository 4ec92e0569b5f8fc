import XCTest
import TargetingEngine
import TargetingTestSupport
@testable import TargetingImpact

/// The corpus side of `diff --profiles`, one line at a time: each placement decided under the
/// rule set(s) that have it, a line rejected with its reason, the attributes a profile has.
final class DiffCorpusTests: XCTestCase {
    private let old = checkedProgram("""
    segment pros = level == "pro"
    audience pro = pros
    placement kept {
      pro -> flow "pro_old"
      everyone -> flow "default"
    }
    placement gone {
      everyone -> split "gone_split" {
        50% -> flow "a"
        50% -> flow "b"
      }
    }

    """)
    private let new = checkedProgram("""
    segment pros = level == "pro"
    segment tagged = tag is set
    audience pro = pros
    audience tagged_users = tagged
    placement kept {
      pro -> flow "pro_new"
      everyone -> flow "default"
    }
    placement fresh {
      tagged_users -> paywall "pw_tag"
    }

    """)
    private let now: Int64 = 1_795_953_600_000

    private func corpus() -> DiffCorpus {
        let pairing = PlacementPairing(old: old.placements.map(\.name), new: new.placements.map(\.name))
        return DiffCorpus(old: old, new: new, now: now,
                          shared: pairing.shared.map { ($0, old.placementIndex(named: $0)!, new.placementIndex(named: $0)!) },
                          removed: pairing.removed.map { ($0, old.placementIndex(named: $0)!) },
                          added: pairing.added.map { ($0, new.placementIndex(named: $0)!) },
                          attributes: new.slots)
    }

    private func compare(_ line: String) -> DiffCorpus.Outcome {
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBufferPointer { corpus().compare($0, unseen: Array(new.slots.indices)) }
    }

    func testThePlacementsArePairedByName() {
        let pairing = PlacementPairing(old: ["a", "gone", "b"], new: ["b", "new", "a"])
        XCTAssertEqual(pairing.shared, ["a", "b"])
        XCTAssertEqual(pairing.removed, ["gone"])
        XCTAssertEqual(pairing.added, ["new"])
        XCTAssertEqual(pairing.all, ["a", "gone", "b", "new"])
        XCTAssertEqual(pairing.only("new").all, ["new"])
        XCTAssertEqual(pairing.only("new").added, ["new"])
        XCTAssertEqual(pairing.only("a").shared, ["a"])
        XCTAssertEqual(pairing.only("none").all, [])
    }

    func testEachPlacementIsDecidedUnderTheRuleSetsThatHaveIt() throws {
        guard case .compared(let id, let decisions, let seen) = compare(#"{"id":"u1","custom_attributes":{"level":"pro","tag":"x"}}"#) else {
            return XCTFail("the profile was rejected")
        }
        XCTAssertEqual(id, "u1")
        XCTAssertEqual(decisions.map(\.placement), ["kept", "gone", "fresh"])
        XCTAssertEqual(decisions[0].old?.flowID, "pro_old")
        XCTAssertEqual(decisions[0].new?.flowID, "pro_new")
        XCTAssertNotNil(decisions[1].old?.split)
        XCTAssertNil(decisions[1].new)
        XCTAssertNil(decisions[2].old)
        XCTAssertEqual(decisions[2].new?.paywallID, "pw_tag")
        // Both attributes the new rules read are present.
        XCTAssertEqual(Set(seen.map { new.slots[$0].target.written }), ["level", "tag"])
    }

    func testABrokenLineAndAnInvalidProfileAreRejectedWithTheirReason() {
        guard case .rejected(let broken) = compare(#"{"id":"#) else { return XCTFail("a broken line was compared") }
        XCTAssertFalse(broken.isEmpty)
        let long = String(repeating: "x", count: 51)
        guard case .rejected(let invalid) = compare(#"{"id":"u2","custom_attributes":{"level":"\#(long)"}}"#) else {
            return XCTFail("a value over 50 characters was compared")
        }
        XCTAssertTrue(invalid.contains("level"), invalid)
    }

    func testAPlacementOnOneSideIsSizedThereEvenWhenItsSplitCannotDraw() {
        // Without an id, the removed placement's split counts as its row's audience, with no variant.
        guard case .compared(let id, let decisions, _) = compare(#"{"custom_attributes":{"level":"pro"}}"#) else {
            return XCTFail("the profile was rejected")
        }
        XCTAssertNil(id)
        XCTAssertEqual(decisions[1].placement, "gone")
        XCTAssertEqual(decisions[1].old?.audience, "everyone")
        XCTAssertNil(decisions[1].old?.outcome)
    }
}
