import XCTest
@testable import TargetingBase
@testable import TargetingFormatting
@testable import TargetingSyntax

/// Golden tests of how the formatter writes segment and audience expressions too wide for one
/// line. Each input formats to exactly the expected text, which parses to the same tree with the
/// same comments and formats to itself.
final class ExpressionLayoutTests: XCTestCase {
    private func format(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        switch TargetingFormatting.Formatter.format(SourceFile(path: "t.rules", text: text)) {
        case .success(let output): return output
        case .failure(let error):
            XCTFail("not formatted: \(error.message) \(error.diagnostics.map(\.message))", file: file, line: line)
            return nil
        }
    }

    private func dump(_ source: SourceFile) -> String { SyntaxTreeDump.rules(Parser.parseRules(source).0) }

    private func comments(_ source: SourceFile) -> [String] {
        Parser.parseRules(source).0.comments.map { TargetingFormatting.Formatter.commentText($0) }
    }

    /// The golden output, the same tree and comments as the input, and formatting the output
    /// again gives it back unchanged.
    private func assertFormats(_ input: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let output = format(input, file: file, line: line) else { return }
        XCTAssertEqual(output, expected, "formatted text", file: file, line: line)
        let before = SourceFile(path: "t.rules", text: input)
        let after = SourceFile(path: "t.rules", text: output)
        XCTAssertEqual(dump(before), dump(after), "syntax tree", file: file, line: line)
        XCTAssertEqual(comments(before), comments(after), "comments", file: file, line: line)
        XCTAssertEqual(format(output, file: file, line: line), output, "formatting twice", file: file, line: line)
    }

    // MARK: - Chains

    func testLongOrChainPutsOneOperandOnEachLine() {
        assertFormats("""
        segment capped = country in ["US", "CA", "GB", "AU", "NZ"] or total_spent >= 100 or sessions_last_week >= 12 or referral_source == "partner_newsletter"

        """, """
        segment capped =
          country in ["US", "CA", "GB", "AU", "NZ"]
          or total_spent >= 100
          or sessions_last_week >= 12
          or referral_source == "partner_newsletter"

        """)
    }

    func testLongAndChainPutsOneOperandOnEachLine() {
        assertFormats("""
        audience upsell = adults and country in ["US", "CA", "GB"] and not subscribed and sessions_last_week >= 3 and app_version >= "2.4.0"

        """, """
        audience upsell =
          adults
          and country in ["US", "CA", "GB"]
          and not subscribed
          and sessions_last_week >= 3
          and app_version >= "2.4.0"

        """)
    }

    func testSpreadOverManyLinesTheSameLayoutComesBack() {
        // However the source spreads the operands, the output is the same.
        assertFormats("""
        segment capped = country in ["US", "CA",
                                     "GB", "AU", "NZ"] or
            total_spent >= 100 or sessions_last_week
            >= 12
          or referral_source == "partner_newsletter"
        segment after = a

        """, """
        segment capped =
          country in ["US", "CA", "GB", "AU", "NZ"]
          or total_spent >= 100
          or sessions_last_week >= 12
          or referral_source == "partner_newsletter"
        segment after = a

        """)
    }

    func testAndChainInsideAnOrChainIndentsItsOtherOperands() {
        assertFormats("""
        segment mixed = country in ["US", "CA", "GB", "AU", "NZ", "IE", "DE", "FR", "ES", "IT"] and age >= 18 and not subscribed or beta_testers

        """, """
        segment mixed =
          country in ["US", "CA", "GB", "AU", "NZ", "IE", "DE", "FR", "ES", "IT"]
            and age >= 18
            and not subscribed
          or beta_testers

        """)
    }

    // MARK: - Nested groups

    func testNestedGroupsBreakInsideTheirParenthesesOneLevelDeeper() {
        assertFormats("""
        audience eligible = (country in ["US", "CA", "GB", "AU", "NZ", "IE"] and age >= 18 and (platform == "ios" and app_version >= "2.0.0" or platform == "android" and app_version >= "3.1.0")) or (beta_testers and not subscribed) or staff

        """, """
        audience eligible =
          (
            country in ["US", "CA", "GB", "AU", "NZ", "IE"]
            and age >= 18
            and (
              platform == "ios" and app_version >= "2.0.0"
              or platform == "android" and app_version >= "3.1.0"
            )
          )
          or (beta_testers and not subscribed)
          or staff

        """)
    }

    func testNegatedGroupAtTheTopKeepsNotAndTheParenthesisOnTheFirstLine() {
        assertFormats("""
        segment lapsed = not (opened_app_this_week or purchased_in_last_month or answered_quiz or referral_source == "partner_newsletter")

        """, """
        segment lapsed = not (
          opened_app_this_week
          or purchased_in_last_month
          or answered_quiz
          or referral_source == "partner_newsletter"
        )

        """)
    }

    func testNegatedGroupOperandBreaksAfterItsOperator() {
        assertFormats("""
        audience fresh = new_users and not (opened_app_this_week or purchased_in_last_month or answered_quiz or team_accounts or staff_accounts)

        """, """
        audience fresh =
          new_users
          and not (
            opened_app_this_week
            or purchased_in_last_month
            or answered_quiz
            or team_accounts
            or staff_accounts
          )

        """)
    }

    // MARK: - Comments

    func testCommentsInsideABrokenExpressionStayBesideTheirOperands() {
        assertFormats("""
        # Users we cap.
        segment capped = country in ["US", "CA", "GB", "AU", "NZ"]  # launch markets
            # big spenders
            or total_spent >= 100
            or (sessions_last_week >= 12 # heavy
                and not subscribed)
            or referral_source == "partner_newsletter"  # the newsletter deal
        segment after = a

        """, """
        # Users we cap.
        segment capped =
          country in ["US", "CA", "GB", "AU", "NZ"]  # launch markets
          # big spenders
          or total_spent >= 100
          # heavy
          or (sessions_last_week >= 12 and not subscribed)
          or referral_source == "partner_newsletter"  # the newsletter deal
        segment after = a

        """)
    }

    func testCommentsInsideABrokenGroup() {
        assertFormats("""
        audience eligible = # who may see the offer
          beta_testers or (  # the launch group
          country in ["US", "CA", "GB", "AU", "NZ", "IE"]
          and age >= 18 and sessions_last_week >= 3
          # no subscribers yet
          and not subscribed
          # end of the launch group
        )

        """, """
        audience eligible =  # who may see the offer
          beta_testers
          or (  # the launch group
            country in ["US", "CA", "GB", "AU", "NZ", "IE"]
            and age >= 18
            and sessions_last_week >= 3
            # no subscribers yet
            and not subscribed
            # end of the launch group
          )

        """)
    }

    func testBlankLinesBetweenOperandsAreKeptButNotAfterTheEqualsSign() {
        assertFormats("""
        segment capped =


          country in ["US", "CA", "GB", "AU", "NZ"]

          or total_spent >= 100
          or sessions_last_week >= 12
          or referral_source == "partner_newsletter"

        """, """
        segment capped =
          country in ["US", "CA", "GB", "AU", "NZ"]

          or total_spent >= 100
          or sessions_last_week >= 12
          or referral_source == "partner_newsletter"

        """)
    }

    // MARK: - What stays on one line

    func testShortExpressionsStayOnOneLine() {
        assertFormats("""
        segment capped = a
          or b
          or (c # why c
              and d)
        audience upsell = adults   and not subscribed

        """, """
        # why c
        segment capped = a or b or (c and d)
        audience upsell = adults and not subscribed

        """)
    }

    func testOneHundredColumnsFitAndOneMoreBreaks() {
        let head = "segment s = "
        let fitting = head + String(repeating: "x", count: 100 - head.count - " or y".count) + " or y"
        XCTAssertEqual(fitting.count, 100)
        assertFormats(fitting + "\n", fitting + "\n")

        let name = String(repeating: "x", count: 101 - head.count - " or y".count)
        XCTAssertEqual((head + name + " or y").count, 101)
        assertFormats(head + name + " or y\n", "segment s =\n  \(name)\n  or y\n")
    }

    func testAnExpressionWithoutAndOrOrStaysOnOneLineHoweverLong() {
        let list = (1...30).map { "\"country_\($0)\"" }.joined(separator: ", ")
        let text = """
        segment markets = country in [\(list)]
        segment wrapped = (country in [\(list)])
        segment negated = not (country in [\(list)])

        """
        assertFormats(text, text)
    }

    func testEveryBreakableLineFitsAndTheOutputIsStable() {
        // Forty parenthesised `and` groups joined by `or`, each group short enough for one line.
        let groups = (1...40).map { "(platform_\($0) == \"ios\" and version_\($0) >= \"\($0).0.0\")" }
        guard let output = format("segment wide = " + groups.joined(separator: " or ") + "\n") else { return }
        let lines: [String] = output.split(separator: "\n").map(String.init)
        let expected: [String] = ["segment wide =", "  " + groups[0]] + groups.dropFirst().map { "  or " + $0 }
        XCTAssertEqual(lines, expected)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 100 })
        XCTAssertEqual(format(output), output)
    }
}
