import Foundation
import XCTest
@testable import TargetingBase
@testable import TargetingFormatting
@testable import TargetingSyntax

/// Golden tests of the formatter: each input formats to exactly the expected text, the expected
/// text parses to the same syntax tree with the same comments, and formats to itself.
final class FormatterTests: XCTestCase {
    // MARK: - Helpers

    /// The formatted text of `text` read as the file `path`, or a failure.
    private func format(_ text: String, path: String = "t.rules", file: StaticString = #filePath, line: UInt = #line) -> String? {
        format(bytes: Array(text.utf8), path: path, file: file, line: line)
    }

    private func format(bytes: [UInt8], path: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        switch TargetingFormatting.Formatter.format(SourceFile(path: path, bytes: bytes)) {
        case .success(let output): return output
        case .failure(let error):
            XCTFail("not formatted: \(error.message) \(error.diagnostics.map(\.message))", file: file, line: line)
            return nil
        }
    }

    /// Checks the golden output and the three soundness properties.
    private func assertFormats(_ input: String, _ expected: String, path: String = "t.rules",
                               file: StaticString = #filePath, line: UInt = #line) {
        guard let output = format(input, path: path, file: file, line: line) else { return }
        XCTAssertEqual(output, expected, "formatted text", file: file, line: line)
        assertSound(original: Array(input.utf8), output: expected, path: path, file: file, line: line)
    }

    /// `output` parses to the tree and comments of `original`, and formats to itself.
    private func assertSound(original: [UInt8], output: String, path: String, file: StaticString = #filePath, line: UInt = #line) {
        let before = SourceFile(path: path, bytes: original)
        let after = SourceFile(path: path, text: output)
        XCTAssertEqual(dump(before), dump(after), "syntax tree", file: file, line: line)
        XCTAssertEqual(comments(before), comments(after), "comments", file: file, line: line)
        XCTAssertEqual(format(output, path: path, file: file, line: line), output, "formatting twice", file: file, line: line)
    }

    private func dump(_ source: SourceFile) -> String {
        if source.path.hasSuffix(".tests") { return SyntaxTreeDump.tests(Parser.parseTests(source).0) }
        return SyntaxTreeDump.rules(Parser.parseRules(source).0)
    }

    private func comments(_ source: SourceFile) -> [String] {
        let comments = source.path.hasSuffix(".tests") ? Parser.parseTests(source).0.comments : Parser.parseRules(source).0.comments
        return comments.map { TargetingFormatting.Formatter.commentText($0) }
    }

    private static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    /// Every file in a directory tree whose name ends with one of `extensions`.
    private func files(under directory: URL, extensions: [String]) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }
            .filter { url in extensions.contains { url.lastPathComponent.hasSuffix("." + $0) } }
            .sorted { $0.path < $1.path }
    }

    // MARK: - Declarations

    func testAttributes() {
        assertFormats("""
        attribute   experience :string   one   of [ "beginner","amateur" , "pro", ]
        attribute weekly_hours:number
        attribute reminders: bool
        attribute interests: set of ["sports",
            "music"]
        attribute tags: set one of ["a"]
        attribute plain_set: set
        attribute goal_date: date
        attribute sdk_version: version
        attribute `fav-sport`: string
        attribute level: number one of [1, -2.50, 3]
        """, """
        attribute experience: string one of ["beginner", "amateur", "pro"]
        attribute weekly_hours: number
        attribute reminders: bool
        attribute interests: set of ["sports", "music"]
        attribute tags: set of ["a"]
        attribute plain_set: set
        attribute goal_date: date
        attribute sdk_version: version
        attribute `fav-sport`: string
        attribute level: number one of [1, -2.50, 3]

        """)
    }

    func testInputs() {
        assertFormats("""
        input email->profile.email
        input  scr_quiz / experience  ->  experience
        input "scr 1"/"fav sport" -> `fav-sport`
        input `scr-2`/name -> profile.first_name
        """, """
        input email -> profile.email
        input scr_quiz/experience -> experience
        input "scr 1"/"fav sport" -> `fav-sport`
        input `scr-2`/name -> profile.first_name

        """)
    }

    func testEveryComparisonOperator() {
        assertFormats("""
        segment a=x=="pro"
        segment b = x!="pro"
        segment c = n<1
        segment d = n<=-1.5
        segment e = n>2
        segment f = n>=18
        segment g = n between 1 and 10
        segment h = x in ["a","b",]
        segment i = x not  in ["a"]
        segment j = x contains "a"
        segment k = x starts   with "a"
        segment l = x ends with "a" ignoring   case
        segment m = s has "a"
        segment n2 = s has any ["a", "b"] ignoring case
        segment o = s has all ["a"]
        segment p = s has none ["a"]
        segment q = x is set
        segment r = x is  not set
        segment s2 = flag == true
        segment t = flag != false
        segment u = profile.installed_at >= now-7d
        segment v = profile.last_seen_at < now +  12h
        segment w = now between 2026-11-27 and 2026-11-30T23:59:59Z
        segment y = profile.app_version >= "4.2.0"
        segment z = `fav-sport` == "tennis" and `profile.raw` is set
        """, """
        segment a = x == "pro"
        segment b = x != "pro"
        segment c = n < 1
        segment d = n <= -1.5
        segment e = n > 2
        segment f = n >= 18
        segment g = n between 1 and 10
        segment h = x in ["a", "b"]
        segment i = x not in ["a"]
        segment j = x contains "a"
        segment k = x starts with "a"
        segment l = x ends with "a" ignoring case
        segment m = s has "a"
        segment n2 = s has any ["a", "b"] ignoring case
        segment o = s has all ["a"]
        segment p = s has none ["a"]
        segment q = x is set
        segment r = x is not set
        segment s2 = flag == true
        segment t = flag != false
        segment u = profile.installed_at >= now - 7d
        segment v = profile.last_seen_at < now + 12h
        segment w = now between 2026-11-27 and 2026-11-30T23:59:59Z
        segment y = profile.app_version >= "4.2.0"
        segment z = `fav-sport` == "tennis" and `profile.raw` is set

        """)
    }

    func testLiteralsKeepTheirSpelling() {
        assertFormats(#"""
        segment a = x == "say \"hi\"\t\u{e9}\\"
        segment b = n == 007.50
        segment c = d >= 2026-11-28T23:00:00.5+01:00
        segment d = d >= 2026-11-28t08:00:00z
        """#, #"""
        segment a = x == "say \"hi\"\t\u{e9}\\"
        segment b = n == 007.50
        segment c = d >= 2026-11-28T23:00:00.5+01:00
        segment d = d >= 2026-11-28t08:00:00z

        """#)
    }

    func testControlCharactersAreWrittenAsEscapes() {
        assertFormats(#"""
        segment a = x == "a\u{0}b"

        placement p {
          everyone -> flow "f\u{0}\u{85}"
        }
        """#, #"""
        segment a = x == "a\u{0}b"

        placement p {
          everyone -> flow "f\u{0}\u{85}"
        }

        """#)
        XCTAssertEqual(CodePrinter.quoted("a\u{0}b\u{1F}\u{7F}\u{85}\u{9F}\u{A0}\t\n"), #""a\u{0}b\u{1f}\u{7f}\u{85}\u{9f}\#u{A0}\t\n""#)
    }

    func testBooleanOperatorsAndParentheses() {
        assertFormats("""
        audience a = p   and   q
        audience b = p or q and not r
        audience c = ( p or q )and not( r )
        audience d = not not p
        audience e = ((p))
        segment f = (x == 1 or y == 2) and not (z is set)
        """, """
        audience a = p and q
        audience b = p or q and not r
        audience c = (p or q) and not (r)
        audience d = not not p
        audience e = ((p))
        segment f = (x == 1 or y == 2) and not (z is set)

        """)
    }

    func testMultiLineExpressionJoinsOntoOneLine() {
        assertFormats("""
        segment modern_ios =
            profile.platform == "ios"
            and profile.app_version >= "4.2.0"
        audience casuals = (beginners
          or amateurs)
          and not pros
        """, """
        segment modern_ios = profile.platform == "ios" and profile.app_version >= "4.2.0"
        audience casuals = (beginners or amateurs) and not pros

        """)
    }

    func testPlacementRowsAlignArrows() {
        assertFormats("""
        placement main_paywall{
        premium_members->nothing
              outdated_app -> paywall "pw_update_first"
          everyone -> paywall   "pw_standard" }
        """, """
        placement main_paywall {
          premium_members -> nothing
          outdated_app    -> paywall "pw_update_first"
          everyone        -> paywall "pw_standard"
        }

        """)
    }

    func testSplitWeightsRightAligned() {
        assertFormats("""
        placement onboarding_followup {
          pro_adults -> flow "flow_pro_v2"
          sporty_new -> split "sporty_test_v1" { 5% -> flow "flow_sport_a"
              90% -> flow "flow_sport_b"
          5%->nothing }
          everyone -> flow "flow_default"
        }
        """, """
        placement onboarding_followup {
          pro_adults -> flow "flow_pro_v2"
          sporty_new -> split "sporty_test_v1" {
             5% -> flow "flow_sport_a"
            90% -> flow "flow_sport_b"
             5% -> nothing
          }
          everyone   -> flow "flow_default"
        }

        """)
    }

    func testEmptyBlocks() {
        assertFormats("""
        placement p {}
        placement q { a -> split "s" {} }
        """, """
        placement p {
        }
        placement q {
          a -> split "s" {
          }
        }

        """)
    }

    // MARK: - Comments

    func testOwnLineCommentBeforeADeclaration() {
        assertFormats("""
        # Segments.
            # indented in the source
        segment pros = experience == "pro"
        """, """
        # Segments.
        # indented in the source
        segment pros = experience == "pro"

        """)
    }

    func testTrailingComments() {
        assertFormats("""
        attribute reminders: bool # stored as 1 or 0
        input scr_quiz/experience -> experience     # screen-qualified
        segment pros = experience == "pro"\t#tight   \u{20}
        """, """
        attribute reminders: bool  # stored as 1 or 0
        input scr_quiz/experience -> experience  # screen-qualified
        segment pros = experience == "pro"  #tight

        """)
    }

    func testCommentsInsideAPlacement() {
        assertFormats("""
        placement onboarding_followup {   # the follow-up
        # pros first
          pro_adults -> flow "flow_pro_v2" # the v2 flow

              # the default comes last
          everyone -> flow "flow_default"
          # nothing after everyone
        } # end
        """, """
        placement onboarding_followup {  # the follow-up
          # pros first
          pro_adults -> flow "flow_pro_v2"  # the v2 flow

          # the default comes last
          everyone   -> flow "flow_default"
          # nothing after everyone
        }  # end

        """)
    }

    func testCommentsInsideASplit() {
        assertFormats("""
        placement p {
          sporty -> split "s1" { # a/b test
            # variant a
            50% -> flow "a"
            40% -> flow "b" # variant b
            10% -> nothing                 # holdout: the audience matched, show nothing
        # end of variants
          } # end of split
        }
        """, """
        placement p {
          sporty -> split "s1" {  # a/b test
            # variant a
            50% -> flow "a"
            40% -> flow "b"  # variant b
            10% -> nothing  # holdout: the audience matched, show nothing
            # end of variants
          }  # end of split
        }

        """)
    }

    func testCommentsAtTheEndOfTheFile() {
        assertFormats("""
        segment a = x == 1


        # the end
        #   really
        """, """
        segment a = x == 1

        # the end
        #   really

        """)
    }

    func testCommentsInsideAMultiLineExpressionMoveAboveIt() {
        assertFormats("""
        segment a = x == 1

        # about b
        segment b = x == 1 or # first half
            # second half
            y == 2 # the end of b
        segment c = x is set
        """, """
        segment a = x == 1

        # about b
        # first half
        # second half
        segment b = x == 1 or y == 2  # the end of b
        segment c = x is set

        """)
    }

    func testCommentsInsideARowOrHeaderSplitOverLines() {
        assertFormats("""
        placement p # the name
        {
          a -> # to the flow
            flow "f"
          b -> split "s" # split over lines
          { 50% -> # weight
            flow "x"
            50% -> nothing }
        }
        """, """
        # the name
        placement p {
          # to the flow
          a -> flow "f"
          # split over lines
          b -> split "s" {
            # weight
            50% -> flow "x"
            50% -> nothing
          }
        }

        """)
    }

    func testPatternsKeepTheirSpellingWithCommentCharactersQuotesAndSlashes() {
        // `#`, `"`, `\/` and spaces inside a pattern are the pattern's; `ignoring case` stays.
        assertFormats(#"""
        segment a  =  note   matches   /a # b "c" \/ d/   ignoring   case # real
        segment b = note matches / #\/"x"\// and not(note matches /[#"]+ \/ x/)
        segment c = (note matches /\u{23} "\\"/ ignoring case or note == "#")
        """#, #"""
        segment a = note matches /a # b "c" \/ d/ ignoring case  # real
        segment b = note matches / #\/"x"\// and not (note matches /[#"]+ \/ x/)
        segment c = (note matches /\u{23} "\\"/ ignoring case or note == "#")

        """#)
    }

    func testCommentCharacterInsideStringsAndNames() {
        assertFormats("""
        segment a = x == "#1" and `a#b` is set # real
        """, """
        segment a = x == "#1" and `a#b` is set  # real

        """)
    }

    // MARK: - Blank lines and line breaks

    func testBlankLinesCollapseAndGroupingIsKept() {
        assertFormats("""


        attribute a: bool
        attribute b: bool



        segment s = a == true
        segment t = b == true
        placement p {

          x -> flow "f"


          y -> flow "g"

        }



        """, """
        attribute a: bool
        attribute b: bool

        segment s = a == true
        segment t = b == true
        placement p {
          x -> flow "f"

          y -> flow "g"
        }

        """)
    }

    func testSeveralDeclarationsOnOneLine() {
        assertFormats("""
        segment a = x == 1 segment b = y == 2 audience c = a placement p { c -> flow "f" everyone -> nothing }
        """, """
        segment a = x == 1
        segment b = y == 2
        audience c = a
        placement p {
          c        -> flow "f"
          everyone -> nothing
        }

        """)
    }

    func testCRLFAndLoneCRBecomeLF() {
        let input = "# head\r\nsegment a = x == 1\r\n\r\n\r\nsegment b =\r\n  y == 2  # tail\r\rsegment c = z is set\r\n"
        guard let output = format(input) else { return }
        XCTAssertEqual(output, "# head\nsegment a = x == 1\n\nsegment b = y == 2  # tail\n\nsegment c = z is set\n")
        assertSound(original: Array(input.utf8), output: output, path: "t.rules")
    }

    func testByteOrderMarkIsDropped() {
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("segment a = x == 1".utf8)
        XCTAssertEqual(format(bytes: input, path: "t.rules"), "segment a = x == 1\n")
    }

    func testEmptyAndBlankFilesStayEmpty() {
        XCTAssertEqual(format(""), "")
        XCTAssertEqual(format("  \n\n\t\r\n"), "")
        XCTAssertEqual(format("", path: "t.tests"), "")
        assertFormats("\n\n# only a comment   \n\n", "# only a comment\n")
    }

    // MARK: - Tests files

    func testTestsFile() {
        assertFormats("""
        # Regression tests.

        test "pro adults see the pro flow" {
        now 2026-11-29T12:00:00Z
          given {
            profile.id = "u1"
              profile.birthday = 1990-06-15   # a Monday
            experience="pro"
            interests = ["sports","music",]
            `fav-sport` = "tennis"
            installed = now - 2d
          }
          expect onboarding_followup->flow "flow_pro_v2"
          expect pro_adults                      # audience or segment membership
          expect not casuals
        }
        test "files" { now 2026-11-29T12:00:00Z given events "../Examples/events/pro_user.jsonl" given profile "../Examples/profiles/base.json"
          expect main -> paywall "pw_x"
          expect other -> nothing
        }
        """, """
        # Regression tests.

        test "pro adults see the pro flow" {
          now 2026-11-29T12:00:00Z
          given {
            profile.id = "u1"
            profile.birthday = 1990-06-15  # a Monday
            experience = "pro"
            interests = ["sports", "music"]
            `fav-sport` = "tennis"
            installed = now - 2d
          }
          expect onboarding_followup -> flow "flow_pro_v2"
          expect pro_adults  # audience or segment membership
          expect not casuals
        }
        test "files" {
          now 2026-11-29T12:00:00Z
          given events "../Examples/events/pro_user.jsonl"
          given profile "../Examples/profiles/base.json"
          expect main -> paywall "pw_x"
          expect other -> nothing
        }

        """, path: "t.tests")
    }

    func testTestsFileKeepsTheOrderOfLinesAndComments() {
        assertFormats(#"""
        test "order \"kept\"" {
          expect a

          # then the profile
          given { x = 1 # one
          # end of given
          }
          now 2026-01-01
          given { }
          # last
        }

        # after the last test
        """#, #"""
        test "order \"kept\"" {
          expect a

          # then the profile
          given {
            x = 1  # one
            # end of given
          }
          now 2026-01-01
          given {
          }
          # last
        }

        # after the last test

        """#, path: "t.tests")
    }

    // MARK: - Errors

    func testSyntaxErrorsAreNotFormatted() {
        for (text, path) in [("segment a = \nplacement p {", "t.rules"), ("segment a = x = 1", "t.rules"),
                             ("test \"t\" { expect }", "t.tests"), ("segment a = x == 1", "t.tests"),
                             ("segment a = x == \"open", "t.rules")] {
            guard case .failure(let error) = TargetingFormatting.Formatter.format(SourceFile(path: path, text: text)) else {
                XCTFail("formatted broken input: \(text)")
                continue
            }
            guard case .syntax(let diagnostics) = error else { XCTFail("not a syntax error: \(error)"); continue }
            XCTAssertFalse(diagnostics.isEmpty, text)
            XCTAssertTrue(diagnostics.allSatisfy { $0.range.file == path }, text)
        }
    }

    func testInvalidUTF8IsNotFormatted() {
        let result = TargetingFormatting.Formatter.format(SourceFile(path: "t.rules", bytes: [0x73, 0xFF, 0x0A]))
        guard case .failure(.syntax(let diagnostics)) = result else { return XCTFail("formatted invalid UTF-8") }
        XCTAssertEqual(diagnostics.first?.code, "invalid-utf8")
    }

    func testSoundnessCheckRejectsOutputThatChangesTheFile() {
        let source = SourceFile(path: "t.rules", text: "segment a = x == 1  # keep\n")
        guard case .success(let parsed) = TargetingFormatting.Formatter.parse(source) else { return XCTFail("does not parse") }
        XCTAssertNil(TargetingFormatting.Formatter.soundnessProblem(original: parsed, output: "segment a = x == 1  # keep\n"))
        XCTAssertEqual(TargetingFormatting.Formatter.soundnessProblem(original: parsed, output: "segment a = x == 2  # keep\n"),
                       "the formatted text does not parse to the same rules")
        XCTAssertEqual(TargetingFormatting.Formatter.soundnessProblem(original: parsed, output: "segment a = x == 1\n"),
                       "the formatted text loses the comment `# keep`")
        XCTAssertEqual(TargetingFormatting.Formatter.soundnessProblem(original: parsed, output: "segment a =\n  x == 1  # keep\n"),
                       "formatting the formatted text changes it again")
        XCTAssertEqual(TargetingFormatting.Formatter.soundnessProblem(original: parsed, output: "segment a = x ==\n"),
                       "the formatted text does not parse: 2:1: expected a literal (string, number, `true`, `false`, date or `now`), found end of file")
    }

    func testDeepNestingFormats() {
        let depth = 120  // `(not ` nests two levels; the parser allows 256
        let expression = String(repeating: "(not ", count: depth) + "x == 1" + String(repeating: ")", count: depth)
        assertFormats("segment a =\n" + expression, "segment a = " + expression + "\n")
    }

    // MARK: - Shipped and sample files

    func testShippedRulesAndTestsFormatStably() throws {
        let found = files(under: Self.packageRoot.appendingPathComponent("Rules"), extensions: ["rules", "tests"])
        XCTAssertFalse(found.isEmpty)
        for url in found {
            let bytes = [UInt8](try Data(contentsOf: url))
            guard let output = format(bytes: bytes, path: url.path) else { continue }
            assertSound(original: bytes, output: output, path: url.path)
        }
    }
}
