import XCTest
@testable import TargetingFormatting

/// `fmt --diff`'s unified diffs: the hunks `diff -u` would print, and a script that turns the
/// old text into the new one whatever the texts.
final class UnifiedDiffTests: XCTestCase {
    private let diff = UnifiedDiff()

    func testEqualTextsHaveNoDiff() {
        XCTAssertEqual(diff.diff("a\nb\n", "a\nb\n", oldName: "x", newName: "y"), "")
        XCTAssertEqual(diff.diff("", "", oldName: "x", newName: "y"), "")
    }

    func testOneChangedLineWithContext() {
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let new = old.replacingOccurrences(of: "line 5\n", with: "line five\n")
        XCTAssertEqual(diff.diff(old, new, oldName: "a.rules", newName: "a.rules (formatted)"), """
        --- a.rules
        +++ a.rules (formatted)
        @@ -2,7 +2,7 @@
         line 2
         line 3
         line 4
        -line 5
        +line five
         line 6
         line 7
         line 8

        """)
    }

    func testChangesFarApartAreTwoHunksAndCloseOnesOne() {
        let old = (1...20).map { "l\($0)" }.joined(separator: "\n") + "\n"
        var new = old.replacingOccurrences(of: "l2\n", with: "L2\n").replacingOccurrences(of: "l18\n", with: "")
        XCTAssertEqual(diff.diff(old, new, oldName: "o", newName: "n").components(separatedBy: "\n").filter { $0.hasPrefix("@@") },
                       ["@@ -1,5 +1,5 @@", "@@ -15,6 +15,5 @@"])
        new = old.replacingOccurrences(of: "l2\n", with: "L2\n").replacingOccurrences(of: "l8\n", with: "L8\n")
        XCTAssertEqual(diff.diff(old, new, oldName: "o", newName: "n").components(separatedBy: "\n").filter { $0.hasPrefix("@@") },
                       ["@@ -1,11 +1,11 @@"])
    }

    func testInsertionIntoAnEmptyTextAndAMissingFinalLineBreak() {
        XCTAssertEqual(diff.diff("", "a\n", oldName: "o", newName: "n"), "--- o\n+++ n\n@@ -0,0 +1,1 @@\n+a\n")
        XCTAssertEqual(diff.diff("a\nb", "a\nb\n", oldName: "o", newName: "n"),
                       "--- o\n+++ n\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n")
    }

    /// Applying the hunks to the old text gives the new one, for generated pairs of texts.
    func testTheScriptRebuildsTheNewTextAndIsNoLongerThanReplacingEverything() {
        var state: UInt64 = 42
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<300 {
            let old = (0..<next(30)).map { _ in ["a", "b", "c", "d"][next(4)] }
            var new = old
            for _ in 0..<next(8) {
                switch next(3) {
                case 0 where !new.isEmpty: new.remove(at: next(new.count))
                case 1: new.insert(["a", "b", "e"][next(3)], at: next(new.count + 1))
                default: if !new.isEmpty { new[next(new.count)] = "z" }
                }
            }
            let before = UnifiedDiff.lines(old.map { $0 + "\n" }.joined()), after = UnifiedDiff.lines(new.map { $0 + "\n" }.joined())
            let edits = diff.script(before, after)
            var rebuilt: [String] = []
            var deleted = 0, inserted = 0
            for edit in edits {
                switch edit {
                case .same(let o, _): rebuilt.append(String(before[o].text))
                case .delete: deleted += 1
                case .insert(let n):
                    rebuilt.append(String(after[n].text))
                    inserted += 1
                }
            }
            XCTAssertEqual(rebuilt, new, "\(old) -> \(new)")
            XCTAssertEqual(edits.count { if case .delete = $0 { false } else { true } }, new.count)
            XCTAssertEqual(deleted - inserted, old.count - new.count)
            // The shortest script: as many kept lines as the longest common subsequence.
            var common = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
            for i in old.indices.reversed() {
                for j in new.indices.reversed() {
                    common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
                }
            }
            XCTAssertEqual(deleted + inserted, old.count + new.count - 2 * common[0][0], "\(old) -> \(new)")
        }
    }

    func testPastTheEditLimitTheRestIsOneReplacement() {
        var small = UnifiedDiff()
        small.maxEdits = 2
        XCTAssertEqual(small.diff("a\nb\nc\n", "x\ny\nz\n", oldName: "o", newName: "n"),
                       "--- o\n+++ n\n@@ -1,3 +1,3 @@\n-a\n-b\n-c\n+x\n+y\n+z\n")
    }
}
