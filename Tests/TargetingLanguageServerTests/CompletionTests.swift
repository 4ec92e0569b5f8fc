import Foundation
import TargetingBase
import XCTest
@testable import TargetingLanguageServer

/// The files of an in-memory workspace, by path.
struct CompletionTestFiles: WorkspaceFiles {
    var files: [String: String]

    func list(root: String) -> [String] { files.keys.filter { $0.hasPrefix(root + "/") }.sorted() }
    func read(_ path: String) -> [UInt8]? { files[path].map { Array($0.utf8) } }
}

/// `textDocument/completion` on a real server: the document is opened with a `|` marking the
/// cursor, which is sent as an LSP position (0-based line, UTF-16 character).
final class CompletionTests: XCTestCase {
    /// A rule set the documents complete against.
    static let base = """
    attribute experience: string one of ["beginner", "amateur", "pro"]
    attribute interests: set of ["sports", "music"]
    attribute `fav-sport`: string
    segment pros = experience == "pro"
    segment amateurs = experience == "amateur"
    segment beginners = experience == "beginner"
    segment dedicated = weekly_hours >= 10
    audience pro_users = pros
    audience casuals = amateurs or beginners
    placement onboarding {
      pro_users -> flow "f_pro"
      everyone -> flow "f_default"
    }

    """

    /// The text without its marker, and the marker's LSP position (counted here independently
    /// of the server: a line is split at LF, a character is a UTF-16 code unit).
    func marked(_ text: String) -> (String, line: Int, character: Int) {
        let parts = text.components(separatedBy: "|")
        precondition(parts.count == 2, "one cursor marker")
        let lines = parts[0].components(separatedBy: "\n")
        return (parts[0] + parts[1], lines.count - 1, lines[lines.count - 1].utf16.count)
    }

    /// The completion items at the marker of `document`, opened at `path` beside `files`.
    func items(_ document: String, path: String = "/w/edit.rules", files: [String: String] = ["/w/base.rules": base]) -> [JSONValue] {
        let (text, line, character) = marked(document)
        var server = LanguageServer(files: CompletionTestFiles(files: files), clock: { 0 })
        _ = server.handle(.object(["jsonrpc": .string("2.0"), "id": .int(1), "method": .string("initialize"),
                                   "params": .object(["rootUri": .string("file:///w")])]))
        let uri = "file://" + path
        _ = server.handle(.object(["jsonrpc": .string("2.0"), "method": .string("textDocument/didOpen"), "params": .object([
            "textDocument": .object(["uri": .string(uri), "languageId": .string("targeting"), "version": .int(1), "text": .string(text)]),
        ])]))
        let response = server.handle(.object(["jsonrpc": .string("2.0"), "id": .int(2), "method": .string("textDocument/completion"), "params": .object([
            "textDocument": .object(["uri": .string(uri)]),
            "position": .object(["line": .int(line), "character": .int(character)]),
        ])]))
        XCTAssertEqual(response.count, 1)
        return response.first?["result"]?.arrayValue ?? []
    }

    func labels(_ document: String, path: String = "/w/edit.rules", files: [String: String] = ["/w/base.rules": base]) -> [String] {
        items(document, path: path, files: files).compactMap { $0["label"]?.stringValue }
    }

    /// An item's edit as `line:start-end newText` (all on one line).
    func edit(_ item: JSONValue?) -> String {
        guard let edit = item?["textEdit"], let line = edit["range", "start", "line"]?.intValue,
              let start = edit["range", "start", "character"]?.intValue, let end = edit["range", "end", "character"]?.intValue,
              edit["range", "end", "line"]?.intValue == line, let text = edit["newText"]?.stringValue else { return "none" }
        return "\(line):\(start)-\(end) \(text)"
    }

    func item(_ label: String, in items: [JSONValue]) -> JSONValue? { items.first { $0["label"]?.stringValue == label } }

    // MARK: - Names

    func testAudienceExpressionsOfferSegmentsOnly() {
        XCTAssertEqual(labels("audience a = |"), ["amateurs", "beginners", "dedicated", "pros", "not"])
        XCTAssertEqual(labels("audience a = pros and |"), ["amateurs", "beginners", "dedicated", "pros", "not"])
        XCTAssertEqual(labels("audience a = pros or not |"), ["amateurs", "beginners", "dedicated", "pros", "not"])
        XCTAssertEqual(labels("audience a = (pros or |"), ["amateurs", "beginners", "dedicated", "pros", "not"])
        XCTAssertEqual(labels("audience a = pros |"), ["and", "or"])
    }

    func testSegmentExpressionsOfferSegmentsAttributesAndNow() {
        let found = items("segment mine = (pr|")
        XCTAssertEqual(found.compactMap { $0["label"]?.stringValue },
                       ["amateurs", "beginners", "dedicated", "pros", "experience", "fav-sport", "interests", "weekly_hours", "profile.", "now", "placement", "not"])
        XCTAssertEqual(edit(item("pros", in: found)), "0:16-18 pros")
        XCTAssertEqual(item("pros", in: found)?["kind"]?.intValue, 6)
        XCTAssertEqual(item("pros", in: found)?["detail"]?.stringValue, "segment")
        XCTAssertEqual(edit(item("fav-sport", in: found)), "0:16-18 `fav-sport`")
        XCTAssertEqual(item("experience", in: found)?["detail"]?.stringValue, #"string one of ["beginner", "amateur", "pro"]"#)
        XCTAssertEqual(item("weekly_hours", in: found)?["detail"]?.stringValue, "undeclared, compared as number")
        // A segment does not offer itself.
        XCTAssertFalse(labels("segment pros = experience == \"pro\" or |", files: ["/w/base.rules": CompletionTests.base.replacingOccurrences(of: "segment pros = experience == \"pro\"\n", with: "")]).contains("pros"))
        XCTAssertFalse(labels("segment pros2 = dedicated or |").contains("pros2"))
    }

    func testPlacementRowsOfferAudiencesAndEveryoneThenArrowThenDestinations() {
        XCTAssertEqual(labels("placement p {\n  |"), ["casuals", "pro_users", "everyone", "always"])
        XCTAssertEqual(labels("placement p {\n  pro_users -> flow \"a\"\n  cas|"), ["casuals", "pro_users", "everyone", "always"])
        XCTAssertEqual(labels("placement p {\n  pro_users |"), ["->"])
        // After a row's leading `always`: its audience, or `->` for an audience named `always`.
        XCTAssertEqual(labels("placement p {\n  always |"), ["casuals", "pro_users", "->"])
        XCTAssertEqual(labels("placement p {\n  always pro_users |"), ["->"])
        XCTAssertEqual(labels("placement p {\n  pro_users -> |"), ["flow", "paywall", "nothing", "split"])
        XCTAssertEqual(labels("placement p {\n  pro_users -> split \"s\" {\n    50% -> |"), ["flow", "paywall", "nothing"])
        XCTAssertEqual(labels("placement p {\n  pro_users -> split \"s\" {\n    50% -> nothing\n    50% -> flow \"x\"\n  }\n  |"),
                       ["casuals", "pro_users", "everyone", "always"])
        let item = items("placement p {\n  pro_users -> flow \"a\"\n  }\n|").compactMap { $0["label"]?.stringValue }
        XCTAssertEqual(item, ["attribute", "input", "segment", "audience", "placement", "experiment", "holdout", "layer"])
        XCTAssertEqual(items("placement p {\n  |").first?["kind"]?.intValue, 7)
    }

    // MARK: - Experiments, keys and the holdout

    /// The base rules with the experiments beside them.
    static let experiments = ["/w/base.rules": base, "/w/exp.rules": """
    attribute plan: string
    attribute tier: number
    audience new_users = dedicated
    experiment pricing_q4 by profile.customer_user_id {
      50% control
      50% discount
    }
    experiment copy_test {
      30% control
      70% bold
    }
    placement main_paywall {
      new_users -> pricing_q4 {
        control  -> paywall "pw_standard"
        discount -> paywall "pw_discount"
      }
      everyone -> paywall "pw_standard"
    }

    """]

    func testAfterARowsArrowExperimentsAreOfferedBesideTheDestinations() {
        let found = items("placement p {\n  new_users -> |", files: CompletionTests.experiments)
        XCTAssertEqual(found.compactMap { $0["label"]?.stringValue }, ["flow", "paywall", "nothing", "split", "copy_test", "pricing_q4"])
        XCTAssertEqual(item("pricing_q4", in: found)?["kind"]?.intValue, 13)
        XCTAssertEqual(item("pricing_q4", in: found)?["detail"]?.stringValue, "experiment: control, discount")
        XCTAssertEqual(edit(item("pricing_q4", in: items("placement p {\n  new_users -> pri|", files: CompletionTests.experiments))), "1:15-18 pricing_q4")
        // Not inside a split or an experiment's arms.
        XCTAssertEqual(labels("placement p {\n  new_users -> split \"s\" {\n    50% -> |", files: CompletionTests.experiments), ["flow", "paywall", "nothing"])
        XCTAssertEqual(labels("placement p {\n  new_users -> pricing_q4 {\n    control -> |", files: CompletionTests.experiments), ["flow", "paywall", "nothing"])
        XCTAssertEqual(labels("placement p {\n  new_users -> pricing_q4 |", files: CompletionTests.experiments), ["{"])
    }

    func testInsideAnExperimentRowTheVariantsNotYetGivenAreOffered() {
        let files = CompletionTests.experiments
        let found = items("placement p {\n  new_users -> pricing_q4 {\n    |", files: files)
        XCTAssertEqual(found.compactMap { $0["label"]?.stringValue }, ["control", "discount"])
        XCTAssertEqual(item("discount", in: found)?["kind"]?.intValue, 20)
        XCTAssertEqual(item("discount", in: found)?["detail"]?.stringValue, "50% of `pricing_q4`")
        XCTAssertEqual(labels("placement p {\n  new_users -> pricing_q4 {\n    control -> flow \"a\"\n    |", files: files), ["discount"])
        XCTAssertEqual(edit(item("discount", in: items("placement p {\n  new_users -> pricing_q4 {\n    control -> nothing\n    dis|", files: files))),
                       "3:4-7 discount")
        // Every variant given: all of them again.
        XCTAssertEqual(labels("placement p {\n  new_users -> pricing_q4 {\n    discount -> nothing\n    control -> flow \"a\"\n    |", files: files),
                       ["control", "discount"])
        // Only the row's experiment's variants.
        XCTAssertEqual(labels("placement p {\n  everyone -> copy_test { control -> nothing |", files: files), ["bold"])
        XCTAssertEqual(labels("placement p {\n  new_users -> pricing_q4 {\n    control |", files: files), ["->"])
        // After the experiment's block, the next row.
        XCTAssertEqual(labels("placement p {\n  pro_users -> pricing_q4 {\n    control -> nothing\n    discount -> nothing\n  }\n  |", files: files),
                       ["casuals", "new_users", "pro_users", "everyone", "always"])
        XCTAssertEqual(labels("placement p {\n  new_users -> unknown_exp {\n    |", files: files), [], "an unknown experiment has no variants")
    }

    func testAfterByTheDrawKeysAreOffered() {
        let files = CompletionTests.experiments
        let keys = ["profile.id", "profile.customer_user_id", "experience", "fav-sport", "plan"]
        let found = items("experiment e by |", files: files)
        XCTAssertEqual(found.compactMap { $0["label"]?.stringValue }, keys, "declared string attributes; not `tier`, a number")
        XCTAssertEqual(item("profile.id", in: found)?["kind"]?.intValue, 5)
        XCTAssertEqual(edit(item("fav-sport", in: found)), "0:16-16 `fav-sport`")
        XCTAssertEqual(edit(item("profile.customer_user_id", in: items("experiment e by profile.cu|", files: files))), "0:16-26 profile.customer_user_id")
        XCTAssertEqual(labels("holdout h 5% by |", files: files), keys)
        XCTAssertEqual(labels("placement p {\n  new_users -> split \"s\" by |", files: files), keys)
        XCTAssertEqual(labels("placement p {\n  new_users -> split \"s\" |", files: files), ["by", "{"])
        XCTAssertEqual(labels("placement p {\n  new_users -> split \"s\" by plan |", files: files), ["{"])
        XCTAssertEqual(labels("experiment e |", files: files), ["by", "{"])
        XCTAssertEqual(labels("experiment e by plan |", files: files), ["{"])
        XCTAssertEqual(labels("experiment e {\n  50% a\n  |", files: files), [], "a weight comes next")
        XCTAssertEqual(labels("experiment e {\n  50% a\n  50% b\n}\n|", files: files).first, "attribute")
    }

    func testAfterExceptThePlacementsNotListedAreOffered() {
        let files = CompletionTests.experiments
        let found = items("holdout h 5% except |", files: files)
        XCTAssertEqual(found.compactMap { $0["label"]?.stringValue }, ["main_paywall", "onboarding"])
        XCTAssertEqual(item("onboarding", in: found)?["kind"]?.intValue, 9)
        XCTAssertEqual(labels("holdout h 5% except onboarding, |", files: files), ["main_paywall"])
        XCTAssertEqual(labels("holdout h 5% by plan except main_paywall, onb|", files: files), ["onboarding"])
        XCTAssertEqual(labels("holdout h 5% |", files: files), ["by", "except"])
        XCTAssertEqual(labels("holdout h 5% by plan |", files: files), ["except"])
        XCTAssertEqual(labels("holdout h |", files: files), [], "a weight comes next")
    }

    // MARK: - Attributes and fields

    func testProfileDotOffersBuiltinFieldsReplacingTheWholeReference() {
        let found = items("segment s = profile.|")
        XCTAssertEqual(found.count, 33, "the built-in fields only")
        XCTAssertEqual(Array(found.compactMap { $0["label"]?.stringValue }.prefix(4)), ["access_levels", "age", "app_version", "attribution_ad_group"])
        let age = item("age", in: found)
        XCTAssertEqual(edit(age), "0:12-20 profile.age")
        XCTAssertEqual(age?["filterText"]?.stringValue, "profile.age")
        XCTAssertEqual(age?["detail"]?.stringValue, "number, derived from `profile.birthday`")
        XCTAssertEqual(item("platform", in: found)?["detail"]?.stringValue, #"string one of ["ios", "ipados", "macos", "visionos", "android"]"#)
        // Partly typed, with text after the cursor on the line.
        XCTAssertEqual(edit(item("platform", in: items("segment s = profile.pla| == \"ios\""))), "0:12-23 profile.platform")
    }

    func testOperatorsFollowAnAttributeAndPhrasesContinueThem() {
        XCTAssertEqual(labels("segment s = experience |"),
                       ["==", "!=", "<", "<=", ">", ">=", "between", "in", "not in", "contains", "starts with", "ends with",
                        "matches", "has", "has any", "has all", "has none", "is set", "is not set"])
        XCTAssertEqual(items("segment s = experience |").first?["kind"]?.intValue, 24)
        XCTAssertEqual(labels("segment s = profile.age |").first, "==")
        XCTAssertEqual(labels("segment s = now |").first, "==")
        XCTAssertEqual(labels("segment s = experience is |"), ["set", "not set"])
        XCTAssertEqual(labels("segment s = experience is not |"), ["set"])
        XCTAssertEqual(labels("segment s = experience starts |"), ["with"])
        XCTAssertEqual(labels("segment s = experience not |"), ["in"])
        XCTAssertEqual(labels("segment s = interests has |"), [#""sports""#, #""music""#, "any", "all", "none"])
        XCTAssertEqual(labels("segment s = experience == \"pro\" |"), ["and", "or", "ignoring case"])
        XCTAssertEqual(labels("segment s = weekly_hours >= 10 |"), ["and", "or"])
        XCTAssertEqual(labels("segment s = experience == |"), [#""beginner""#, #""amateur""#, #""pro""#])
        XCTAssertEqual(labels("segment s = profile.gender != |"), [#""f""#, #""m""#, #""o""#])
    }

    // MARK: - Values inside strings

    func testAllowedValuesInsideAStringBeforeTheClosingQuote() {
        let open = items("segment s = experience == \"am|")
        XCTAssertEqual(open.compactMap { $0["label"]?.stringValue }, ["beginner", "amateur", "pro"])
        XCTAssertEqual(edit(item("amateur", in: open)), "0:27-29 amateur\"")
        XCTAssertEqual(item("amateur", in: open)?["kind"]?.intValue, 20)
        XCTAssertEqual(item("amateur", in: open)?["detail"]?.stringValue, "value of `experience`")
        // Closed: the whole content is replaced, the quote kept.
        XCTAssertEqual(edit(item("pro", in: items("segment s = experience != \"a|m\" or pros"))), "0:27-29 pro")
        XCTAssertEqual(edit(item("pro", in: items("segment s = experience == \"|\""))), "0:27-27 pro")
        // Lists leave out the values already listed.
        XCTAssertEqual(labels("segment s = experience in [\"pro\", \"|"), ["beginner", "amateur"])
        XCTAssertEqual(labels("segment s = experience not in [\"|"), ["beginner", "amateur", "pro"])
        XCTAssertEqual(labels("segment s = interests has any [\"music\", \"|\"]"), ["sports"])
        XCTAssertEqual(labels("segment s = interests has \"|"), ["sports", "music"])
        XCTAssertEqual(labels("segment s = profile.platform == \"i|"), ["ios", "ipados", "macos", "visionos", "android"])
        XCTAssertEqual(labels("segment s = profile.attribution_status in [\"organic\", \"|"), ["non_organic", "unknown"])
        // No allowed values, or not a comparison: nothing.
        XCTAssertEqual(labels("segment s = `fav-sport` == \"|"), [])
        XCTAssertEqual(labels("placement p {\n  pro_users -> flow \"|"), [])
    }

    func testUTF16PositionsAfterEmojiAndCJK() {
        // 📱 is two UTF-16 units (one scalar, four bytes), 日本 two (six bytes).
        let document = "segment s = profile.device == \"📱日本\" or experience == \"b|"
        let found = items(document)
        XCTAssertEqual(found.compactMap { $0["label"]?.stringValue }, ["beginner", "amateur", "pro"])
        let start = "segment s = profile.device == \"📱日本\" or experience == \"".utf16.count
        XCTAssertEqual(start, 55)
        XCTAssertEqual(edit(item("beginner", in: found)), "0:\(start)-\(start + 1) beginner\"")
        // A word after emoji on an earlier line and on its own line.
        let word = items("# 🎉🎉 notes\nsegment s = (profile.device == \"🎉\") and profile.pl|")
        XCTAssertEqual(edit(item("platform", in: word)), "1:41-51 profile.platform")
    }

    // MARK: - Keywords

    func testDeclarationKeywordsAtLineStart() {
        XCTAssertEqual(labels("|"), ["attribute", "input", "segment", "audience", "placement", "experiment", "holdout", "layer"])
        XCTAssertEqual(labels("seg|"), ["attribute", "input", "segment", "audience", "placement", "experiment", "holdout", "layer"])
        XCTAssertEqual(edit(item("segment", in: items("seg|"))), "0:0-3 segment")
        XCTAssertEqual(labels("segment s = pros\n|"), ["and", "or", "attribute", "input", "segment", "audience", "placement", "experiment", "holdout", "layer"])
        XCTAssertEqual(labels("attribute a: |"), ["string", "number", "bool", "date", "version", "set"])
        XCTAssertEqual(labels("attribute a: string |"), ["one of", "attribute", "input", "segment", "audience", "placement", "experiment", "holdout", "layer"])
        XCTAssertEqual(labels("attribute a: set |"), ["of", "attribute", "input", "segment", "audience", "placement", "experiment", "holdout", "layer"])
        XCTAssertEqual(labels("attribute |"), ["weekly_hours"])
        XCTAssertEqual(labels("segment s |"), ["="])
        XCTAssertEqual(labels("input scr/hours -> |").prefix(4), ["experience", "fav-sport", "interests", "weekly_hours"])
        XCTAssertEqual(labels("input scr/hours -> |").suffix(2), ["gender", "birthday"])
    }

    func testNothingInCommentsOrNumbers() {
        XCTAssertEqual(labels("segment s = pros # and |"), [])
        XCTAssertEqual(labels("segment s = weekly_hours >= 1|0"), [])
    }

    // MARK: - Tests files

    func testTestsFilesOfferPlacementsAfterExpectAndAttributesInGiven() {
        let path = "/w/edit.tests"
        XCTAssertEqual(labels("|", path: path), ["test"])
        XCTAssertEqual(labels("test \"t\" {\n  |", path: path), ["now", "given", "expect"])
        let expect = items("test \"t\" {\n  expect |", path: path)
        XCTAssertEqual(expect.compactMap { $0["label"]?.stringValue },
                       ["onboarding", "casuals", "pro_users", "amateurs", "beginners", "dedicated", "pros", "not"])
        XCTAssertEqual(item("onboarding", in: expect)?["kind"]?.intValue, 9)
        XCTAssertEqual(labels("test \"t\" {\n  expect onboarding |", path: path), ["->"])
        XCTAssertEqual(labels("test \"t\" {\n  expect onboarding -> |", path: path), ["flow", "paywall", "nothing", "no match"])
        let given = labels("test \"t\" {\n  given {\n    |", path: path)
        XCTAssertEqual(given, ["experience", "fav-sport", "interests", "weekly_hours", "profile."])
        let fields = labels("test \"t\" {\n  given {\n    profile.|", path: path)
        XCTAssertTrue(fields.contains("birthday"))
        XCTAssertFalse(fields.contains("age"), "derived fields cannot be set")
        XCTAssertEqual(labels("test \"t\" {\n  given {\n    experience |", path: path), ["="])
        XCTAssertEqual(labels("test \"t\" {\n  given {\n    experience = \"|", path: path), ["beginner", "amateur", "pro"])
        XCTAssertEqual(labels("test \"t\" {\n  given {\n    interests = [\"sports\", \"|", path: path), ["music"])
        XCTAssertEqual(labels("test \"t\" {\n  given {\n    experience = \"pro\"\n  }\n  |", path: path), ["now", "given", "expect"])
    }

    func testDestinationIdsAfterFlowOrPaywallInAnExpectation() {
        let path = "/w/edit.tests"
        let files = ["/w/base.rules": CompletionTests.base + """
        placement checkout {
          pro_users -> split "price_test" {
            50% -> paywall "pw_a"
            50% -> paywall "pw_b"
          }
          casuals -> paywall "pw_\\"escaped\\""
          everyone -> paywall "pw_default"
        }

        """]
        let open = items("test \"t\" {\n  expect onboarding -> flow \"|", path: path, files: files)
        XCTAssertEqual(open.compactMap { $0["label"]?.stringValue }, ["f_pro", "f_default"])
        XCTAssertEqual(edit(item("f_pro", in: open)), "1:29-29 f_pro\"", "an unterminated string is closed")
        let closed = items("test \"t\" {\n  expect onboarding -> flow \"f_|d\"\n}", path: path, files: files)
        XCTAssertEqual(edit(item("f_default", in: closed)), "1:29-32 f_default", "the content is replaced, the quote kept")
        XCTAssertEqual(labels("test \"t\" {\n  expect checkout -> paywall \"|", path: path, files: files),
                       ["pw_a", "pw_b", "pw_\"escaped\"", "pw_default"])
        XCTAssertEqual(edit(item("pw_\"escaped\"", in: items("test \"t\" {\n  expect checkout -> paywall \"|", path: path, files: files))),
                       "1:30-30 pw_\\\"escaped\\\"\"")
        XCTAssertEqual(labels("test \"t\" {\n  expect onboarding -> paywall \"|", path: path, files: files), [], "onboarding shows no paywall")
        XCTAssertEqual(labels("test \"t\" {\n  expect nowhere -> paywall \"|", path: path, files: files),
                       ["pw_a", "pw_b", "pw_\"escaped\"", "pw_default"], "an unknown placement: every paywall")
        let bare = items("test \"t\" {\n  expect onboarding -> flow |", path: path, files: files)
        XCTAssertEqual(bare.compactMap { $0["label"]?.stringValue }, ["\"f_pro\"", "\"f_default\""])
        XCTAssertEqual(edit(item("\"f_pro\"", in: bare)), "1:28-28 \"f_pro\"")
    }

    // MARK: - The shipped rules

    func testShippedRulesOfferTheirDeclaredValues() throws {
        let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Rules")
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: rules.path) where name.hasSuffix(".rules") {
            files["/w/Rules/" + name] = try String(contentsOf: rules.appendingPathComponent(name), encoding: .utf8)
        }
        XCTAssertEqual(files.count, 4)
        // A document is completed against its own rule set: `Rules/`.
        let path = "/w/Rules/edit.rules"
        XCTAssertEqual(labels("segment s = experience == \"|", path: path, files: files), ["beginner", "amateur", "pro"])
        XCTAssertEqual(labels("segment s = interests has \"|", path: path, files: files), ["sports", "music", "travel", "food"])
        XCTAssertEqual(labels("placement p {\n  |", path: path, files: files).prefix(3), ["casual_amateurs", "coached_pros", "committed_amateurs"])
        XCTAssertEqual(labels("placement p {\n  |", path: path, files: files).suffix(2), ["everyone", "always"])
        XCTAssertEqual(labels("placement p {\n  |", files: files), ["everyone", "always"], "a file beside `Rules/` is a rule set of its own")
        let tests = labels("test \"t\" {\n  expect |", path: "/w/Rules/new.tests", files: files)
        XCTAssertEqual(tests.prefix(3), ["coaching_paywall", "main_paywall", "onboarding_followup"])
        // A prerequisite: the placements, the arrow, then what the placement can decide.
        XCTAssertEqual(labels("segment s = not placement onb|", path: path, files: files), ["coaching_paywall", "main_paywall", "onboarding_followup"])
        XCTAssertEqual(labels("segment s = placement main_paywall |", path: path, files: files), ["->"])
        let outcomes = labels("segment s = placement main_paywall -> |", path: path, files: files)
        XCTAssertEqual(Array(outcomes.prefix(4)), ["nothing", "paywall \"pw_update_first\"", "paywall \"pw_standard\"", "paywall \"pw_discount\""])
        XCTAssertTrue(outcomes.contains("pricing_q4.discount") && outcomes.contains("["), "\(outcomes)")
        XCTAssertFalse(outcomes.contains("no match"), "main_paywall has an `everyone` row")
        XCTAssertEqual(labels("segment s = placement onboarding_followup -> flow \"|", path: path, files: files).first, "flow_pro_v2")
        XCTAssertEqual(labels("segment s = placement main_paywall -> [nothing, |", path: path, files: files).first, "nothing")
        XCTAssertEqual(labels("segment s = placement main_paywall -> [nothing |", path: path, files: files), [",", "]"])
        XCTAssertEqual(labels("segment s = placement main_paywall -> nothing |", path: path, files: files), ["and", "or"])
    }
}
