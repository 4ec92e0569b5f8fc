import XCTest
import TargetingTestSupport
@testable import TargetingBase
@testable import TargetingSemantics
@testable import TargetingSyntax
import TargetingProfiles

/// Every comparison the checker accepts has a typed test holding its literals as values of the
/// subject's type; a comparison it rejects has none.
final class TypedTestTests: XCTestCase {
    /// The typed test of the one comparison of `segment s = …` after the declarations, with the
    /// checker's diagnostics.
    func typed(_ comparison: String, declarations: String = "") -> (TypedTest?, [Diagnostic]) {
        let text = declarations + "\nsegment s = " + comparison + "\n"
        let (file, parseDiagnostics) = Parser.parseRules(SourceFile(path: "t.rules", text: text))
        let (checked, diagnostics) = Checker.check([file])
        let segment = file.declarations.lazy.compactMap { declaration -> NamedExpression? in
            if case .segment(let segment) = declaration { return segment }
            return nil
        }.first
        guard let segment, case .comparison(let parsed) = segment.expression else {
            XCTFail("no comparison in `\(comparison)`")
            return (nil, parseDiagnostics + diagnostics)
        }
        let type: ValueType?
        switch parsed.subject {
        case .now: type = .date
        case .attribute(let reference):
            type = checked?.attributeTypes[reference.target]?.type ?? {
                if case .builtin(let field) = reference.target { return BuiltinField.all[field]?.type }
                return nil
            }()
        }
        return (TypedTest(parsed, subjectType: type), parseDiagnostics + diagnostics)
    }

    func testAcceptedComparisonsCarryTheirValuesTyped() throws {
        let declarations = """
        attribute n: number
        attribute b: bool
        attribute d: date
        attribute v: version
        attribute w: string
        attribute tags: set
        """
        let cases: [(String, TypedTest)] = [
            ("n == 2", .number(.equals(2))),
            ("n between -0 and 123456789012345678901234567890", .number(.between(-0.0, 123_456_789_012_345_678_901_234_567_890.0))),
            ("n in [1, 2.5]", .number(.isIn([1, 2.5]))),
            // 2^53 + 1 reads as the nearest double, 2^53.
            ("n < 9007199254740993", .number(.order(.less, 9_007_199_254_740_992))),
            ("n >= 1", .number(.order(.greaterOrEqual, 1))),
            ("b != false", .bool(false)),
            ("d <= 1970-01-01", .date(.order(.lessOrEqual, .fixed(0)))),
            ("d > now - 1d", .date(.order(.greater, .relative(-86_400_000)))),
            ("d between now and 2100-01-01", .date(.between(.relative(0), .fixed(4_102_444_800_000)))),
            ("v == \"1.2.3-beta+build\"", .version(.equals(SemanticVersion(parsing: "1.2.3-beta+build")!))),
            ("v in [\"1.0.0\", \"2.0.0\"]", .version(.isIn([SemanticVersion(parsing: "1.0.0")!, SemanticVersion(parsing: "2.0.0")!]))),
            ("w == \"Ä\" ignoring case", .string(.equals("Ä"))),
            ("w not in [\"\", \"x\"]", .string(.isIn(["", "x"]))),
            ("w ends with \"z\"", .string(.endsWith("z"))),
            ("tags has all [\"a\", \"b\"]", .set(.hasAll(["a", "b"]))),
            ("tags is not set", .presence),
            ("undeclared_one is set", .presence),
        ]
        for (comparison, expected) in cases {
            let (test, diagnostics) = typed(comparison, declarations: declarations)
            XCTAssertFalse(diagnostics.contains(where: \.isError), "\(comparison): \(describe(diagnostics))")
            XCTAssertEqual(test, expected, comparison)
        }
        let (pattern, _) = typed("w matches /a+b/ ignoring case", declarations: declarations)
        guard case .string(.matches(let compiled))? = pattern else { return XCTFail("\(String(describing: pattern))") }
        XCTAssertTrue(compiled.matches("AAB"))
    }

    func testRejectedComparisonsHaveNoTypedTest() {
        let declarations = "attribute n: number\nattribute v: version\nattribute d: date\nattribute w: string"
        for comparison in ["n == \"two\"", "v >= \"1.x\"", "d == 2026-02-30", "w < 3", "n contains \"1\"", "w matches /[/",
                           "d in [1, 2]", "n == true"] {
            let (test, diagnostics) = typed(comparison, declarations: declarations)
            XCTAssertTrue(diagnostics.contains(where: \.isError), comparison)
            XCTAssertNil(test, comparison)
        }
    }
}
