import TargetingBase
@testable import TargetingSyntax
import XCTest

final class ComparisonOperatorTests: XCTestCase {
    func testWordsSpellTheOperator() {
        XCTAssertEqual(ComparisonOperator.startsWith.words, ["starts", "with"])
        XCTAssertEqual(ComparisonOperator.isNotSet.words, ["is", "not", "set"])
        XCTAssertEqual(ComparisonOperator.lessOrEqual.words, ["<="])
        for op in ComparisonOperator.allCases {
            XCTAssertEqual(op.words.joined(separator: " "), op.rawValue)
        }
    }

    func testEveryWordIsAToken() {
        // The parser reads an operator by its tokens' spellings: a new word must be a keyword.
        for op in ComparisonOperator.allCases {
            for word in op.words {
                XCTAssertTrue(Keyword(rawValue: word) != nil || Punctuation(rawValue: word) != nil
                              || ComparisonOperator.unreservedWords.contains(word), "`\(word)` of `\(op.rawValue)`")
            }
        }
        XCTAssertEqual(ComparisonOperator.unreservedWords, ["matches"])
    }

    func testBeginningListsTheOperatorsThatStartWithWords() {
        XCTAssertEqual(ComparisonOperator.beginning(with: ["has"]), [.has, .hasAny, .hasAll, .hasNone])
        XCTAssertEqual(ComparisonOperator.beginning(with: ["is"]), [.isSet, .isNotSet])
        XCTAssertEqual(ComparisonOperator.beginning(with: ["is", "not"]), [.isNotSet])
        XCTAssertEqual(ComparisonOperator.beginning(with: ["not"]), [.isNotIn])
        XCTAssertEqual(ComparisonOperator.beginning(with: ["with"]), [])
    }

    func testArityAndRole() {
        XCTAssertEqual(ComparisonOperator.between.arity, .two)
        XCTAssertEqual(ComparisonOperator.hasNone.arity, .list)
        XCTAssertEqual(ComparisonOperator.isSet.arity, .none)
        XCTAssertEqual(ComparisonOperator.has.arity, .one)
        XCTAssertEqual(ComparisonOperator.allCases.filter(\.isOrdering), [.less, .lessOrEqual, .greater, .greaterOrEqual, .between])
        XCTAssertEqual(ComparisonOperator.allCases.filter { $0.operandRole == .fragment }, [.contains, .startsWith, .endsWith])
    }

    func testOperandTypes() {
        XCTAssertTrue(ComparisonOperator.equal.applies(to: .bool))
        XCTAssertFalse(ComparisonOperator.equal.applies(to: .set))
        XCTAssertFalse(ComparisonOperator.less.applies(to: .string))
        XCTAssertTrue(ComparisonOperator.isIn.applies(to: .version))
        XCTAssertFalse(ComparisonOperator.isIn.applies(to: .date))
        XCTAssertEqual(ComparisonOperator.contains.operandTypes, [.string])
        XCTAssertEqual(ComparisonOperator.hasAll.operandTypes, [.set])
        XCTAssertEqual(ComparisonOperator.isNotSet.operandTypes, Set(ValueType.allCases))
    }

    func testInferredType() {
        let range = SourceRange(file: "", start: SourcePosition(offset: 0, line: 1, column: 1), end: SourcePosition(offset: 0, line: 1, column: 1))
        func literal(_ value: Literal.Value) -> Literal { Literal(value: value, text: "", range: range) }
        XCTAssertEqual(ComparisonOperator.greaterOrEqual.inferredType(literal: literal(.number(7))), .number)
        XCTAssertEqual(ComparisonOperator.equal.inferredType(literal: literal(.bool(true))), .bool)
        XCTAssertEqual(ComparisonOperator.less.inferredType(literal: literal(.date(0))), .date)
        XCTAssertEqual(ComparisonOperator.between.inferredType(literal: literal(.now(offset: 0))), .date)
        XCTAssertEqual(ComparisonOperator.greater.inferredType(literal: literal(.string("4.2"))), .version)
        XCTAssertEqual(ComparisonOperator.equal.inferredType(literal: literal(.string("4.2"))), .string)
        XCTAssertEqual(ComparisonOperator.has.inferredType(literal: literal(.number(1))), .set)
        XCTAssertEqual(ComparisonOperator.contains.inferredType(literal: nil), .string)
        XCTAssertNil(ComparisonOperator.isSet.inferredType(literal: nil))
        XCTAssertNil(ComparisonOperator.isIn.inferredType(literal: nil))
    }
}
