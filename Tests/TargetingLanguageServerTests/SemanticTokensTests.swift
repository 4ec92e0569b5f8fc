import XCTest
import TargetingBase
@testable import TargetingLanguageServer

/// `textDocument/semanticTokens/full`: classification by the symbol index, UTF-16 columns and
/// lengths, the relative encoding, comments, tests files.
final class SemanticTokensTests: XCTestCase {
    /// The relative data of a document.
    private func data(_ path: String, _ text: String, files: [String: String] = [:]) -> [Int] {
        var server = FeatureTestServer(files: files)
        server.open(path, text)
        return server.result("textDocument/semanticTokens/full", path: path)?["data"]?.arrayValue?.compactMap(\.intValue) ?? []
    }

    /// The tokens decoded to absolute `line:column+length type modifiers` lines.
    private func decoded(_ data: [Int]) -> [String] {
        var out: [String] = []
        var line = 0, column = 0
        for index in stride(from: 0, to: data.count - 4, by: 5) {
            line += data[index]
            column = data[index] == 0 ? column + data[index + 1] : data[index + 1]
            var text = "\(line):\(column)+\(data[index + 2]) \(LanguageServer.tokenTypes[data[index + 3]])"
            for (bit, modifier) in LanguageServer.tokenModifiers.enumerated() where data[index + 4] & (1 << bit) != 0 {
                text += " " + modifier
            }
            out.append(text)
        }
        return out
    }

    func testTheLegendIsAnnounced() {
        var server = FeatureTestServer()
        let response = server.request("initialize", .object(["rootUri": .string("file:///w")]))
        let legend = response["result", "capabilities", "semanticTokensProvider", "legend"]
        XCTAssertEqual(legend?["tokenTypes"]?.arrayValue?.compactMap(\.stringValue),
                       ["keyword", "string", "number", "regexp", "comment", "operator", "property", "variable", "class", "namespace", "enumMember", "type", "event", "enum"])
        XCTAssertEqual(legend?["tokenModifiers"]?.arrayValue?.compactMap(\.stringValue), ["declaration", "defaultLibrary"])
    }

    func testColumnsAndLengthsCountUTF16UnitsPastEmojiAndCJK() {
        let got = data("/w/a.rules", "segment s = name == \"😀日本\" # 注釈😀\n")
        XCTAssertEqual(got, [
            0, 0, 7, 0, 0,  // segment
            0, 8, 1, 7, 1,  // s, a segment declared
            0, 2, 1, 5, 0,  // =
            0, 2, 4, 6, 0,  // name, an attribute
            0, 5, 2, 5, 0,  // ==
            0, 3, 6, 1, 0,  // "😀日本": 1 + 2 + 1 + 1 + 1 units
            0, 7, 6, 4, 0,  // # 注釈😀
        ])
    }

    func testTokensAfterAWideCharacterStartWhereTheEditorCountsThem() {
        let got = decoded(data("/w/a.rules", "segment s = name == \"😀\" and n > 1 # é\n"))
        XCTAssertEqual(got, ["0:0+7 keyword", "0:8+1 variable declaration", "0:10+1 operator", "0:12+4 property",
                             "0:17+2 operator", "0:20+4 string", "0:25+3 keyword", "0:29+1 property", "0:31+1 operator",
                             "0:33+1 number", "0:35+3 comment"])
    }

    private let rules = """
        attribute experience: string one of ["pro"]
        segment pros = experience == "pro" and
          profile.installed_at >= now - 7d   # recent
        audience top = pros
        placement home {
          top -> split "exp1" {
            50% -> flow "a"
            50% -> nothing
          }
          everyone -> flow "b"
        }

        """

    func testAMultiLineRulesFileIsClassifiedByTheSymbolIndex() {
        let raw = data("/w/b.rules", rules)
        XCTAssertEqual(Array(raw.prefix(10)), [0, 0, 9, 0, 0, 0, 10, 10, 6, 1])
        XCTAssertEqual(decoded(raw), [
            "0:0+9 keyword", "0:10+10 property declaration", "0:22+6 type", "0:29+3 keyword", "0:33+2 keyword", "0:37+5 string",
            "1:0+7 keyword", "1:8+4 variable declaration", "1:13+1 operator", "1:15+10 property", "1:26+2 operator", "1:29+5 string", "1:35+3 keyword",
            "2:2+20 property defaultLibrary", "2:23+2 operator", "2:26+3 keyword", "2:30+1 operator", "2:32+2 regexp", "2:37+8 comment",
            "3:0+8 keyword", "3:9+3 class declaration", "3:13+1 operator", "3:15+4 variable",
            "4:0+9 keyword", "4:10+4 namespace declaration",
            "5:2+3 class", "5:6+2 operator", "5:9+5 keyword", "5:15+6 enumMember declaration",
            "6:4+2 number", "6:6+1 operator", "6:8+2 operator", "6:11+4 keyword", "6:16+3 string",
            "7:4+2 number", "7:6+1 operator", "7:8+2 operator", "7:11+7 keyword",
            "9:2+8 keyword", "9:11+2 operator", "9:14+4 keyword", "9:19+3 string",
        ])
        // Line 1 starts afresh: its delta is one line and its column absolute.
        XCTAssertEqual(Array(raw[30..<35]), [1, 0, 7, 0, 0])
    }

    func testInputNamesAreEventsAndTheirTargetsAttributes() {
        let got = decoded(data("/w/a.rules", "input scr/`el-1` -> profile.email\ninput \"e 😀\" -> `profile.x`\n"))
        XCTAssertEqual(got, ["0:0+5 keyword", "0:6+3 event", "0:9+1 operator", "0:10+6 event", "0:17+2 operator", "0:20+13 property defaultLibrary",
                             "1:0+5 keyword", "1:6+6 event", "1:13+2 operator", "1:16+11 property"])
    }

    func testATestsFileUsesTheNamesOfTheRules() {
        let tests = """
            test "top → b" {
              now 2026-01-01
              given {
                profile.id = "u1"
                `my-key` = "pro"
              }
              expect home -> no match
              expect home -> flow "a" from top
              expect not pros
            }

            """
        let got = decoded(data("/w/t.tests", tests, files: ["/w/b.rules": rules]))
        XCTAssertEqual(got, [
            "0:0+4 keyword", "0:5+9 string",
            "1:2+3 keyword", "1:6+10 regexp",
            "2:2+5 keyword",
            "3:4+10 property defaultLibrary", "3:15+1 operator", "3:17+4 string",
            "4:4+8 property", "4:13+1 operator", "4:15+5 string",
            "6:2+6 keyword", "6:9+4 namespace", "6:14+2 operator", "6:17+2 keyword", "6:20+5 keyword",
            "7:2+6 keyword", "7:9+4 namespace", "7:14+2 operator", "7:17+4 keyword", "7:22+3 string", "7:26+4 keyword", "7:31+3 class",
            "8:2+6 keyword", "8:9+3 keyword", "8:13+4 variable",
        ])
    }

    func testExperimentsVariantsAndTheHoldoutAreClassified() {
        let text = """
            experiment px by profile.customer_user_id {
              60% a
              40% b
            }
            placement home {
              everyone -> px {
                a -> flow "x"
                b -> nothing
              }
            }
            holdout h 5% by profile.id except home

            """
        XCTAssertEqual(decoded(data("/w/a.rules", text)), [
            "0:0+10 keyword", "0:11+2 enum declaration", "0:14+2 keyword", "0:17+24 property defaultLibrary",
            "1:2+2 number", "1:4+1 operator", "1:6+1 enumMember declaration",
            "2:2+2 number", "2:4+1 operator", "2:6+1 enumMember declaration",
            "4:0+9 keyword", "4:10+4 namespace declaration",
            "5:2+8 keyword", "5:11+2 operator", "5:14+2 enum",
            "6:4+1 enumMember", "6:6+2 operator", "6:9+4 keyword", "6:14+3 string",
            "7:4+1 enumMember", "7:6+2 operator", "7:9+7 keyword",
            "10:0+7 keyword", "10:8+1 enum declaration", "10:10+1 number", "10:11+1 operator", "10:13+2 keyword",
            "10:16+10 property defaultLibrary", "10:27+6 keyword", "10:34+4 namespace",
        ])
        // `by` and `except` are words only there: an attribute named `by` is an attribute.
        XCTAssertEqual(decoded(data("/w/b.rules", "segment s = by == \"x\"\n")),
                       ["0:0+7 keyword", "0:8+1 variable declaration", "0:10+1 operator", "0:12+2 property", "0:15+2 operator", "0:18+3 string"])
    }

    func testAFileThatDoesNotParseStillGetsItsTokens() {
        let got = decoded(data("/w/a.rules", "segment = 12abc \"open\n# note"))
        XCTAssertEqual(got, ["0:0+7 keyword", "0:8+1 operator", "0:10+5 number", "0:16+5 string", "1:0+6 comment"])
    }

    func testAnUnknownDocumentGetsNoTokens() {
        var server = FeatureTestServer()
        XCTAssertEqual(server.result("textDocument/semanticTokens/full", path: "/w/none.rules")?["data"], .array([]))
    }
}
