import Foundation
import XCTest
@testable import TargetingBase
@testable import TargetingProfiles

final class JSONValueSDKTests: XCTestCase {
    private struct Custom: Sendable {
        var field = 1
    }

    func testScalars() {
        XCTAssertEqual(JSONValue(sdkValue: "text"), .string("text"))
        XCTAssertEqual(JSONValue(sdkValue: true), .bool(true))
        XCTAssertEqual(JSONValue(sdkValue: false), .bool(false))
        XCTAssertEqual(JSONValue(sdkValue: 1), .number(1))
        XCTAssertEqual(JSONValue(sdkValue: 0), .number(0))
        XCTAssertEqual(JSONValue(sdkValue: 2.5), .number(2.5))
        XCTAssertEqual(JSONValue(sdkValue: -7), .number(-7))
    }

    func testBoolAndIntStayApart() {
        let flag: any Sendable = true
        let one: any Sendable = 1
        XCTAssertEqual(JSONValue(sdkValue: flag), .bool(true))
        XCTAssertEqual(JSONValue(sdkValue: one), .number(1))
        XCTAssertEqual(JSONValue(sdkValue: [true, false]), .array([.bool(true), .bool(false)]))
        XCTAssertEqual(JSONValue(sdkValue: [1, 0]), .array([.number(1), .number(0)]))
    }

    func testAllIntegerAndFloatingPointTypes() {
        let values: [any Sendable] = [
            Int8(-8), Int16(16), Int32(-32), Int64(64), UInt(1), UInt8(8), UInt16(16), UInt32(32), UInt64(64),
            Double(0.5), Float(0.25),
        ]
        let expected: [Double] = [-8, 16, -32, 64, 1, 8, 16, 32, 64, 0.5, 0.25]
        for (value, number) in zip(values, expected) {
            XCTAssertEqual(JSONValue(sdkValue: value), .number(number), "\(type(of: value))")
        }
        XCTAssertEqual(JSONValue(sdkValue: Int64.max), .number(Double(Int64.max)))
        XCTAssertEqual(JSONValue(sdkValue: UInt64.max), .number(Double(UInt64.max)))
        // A Float goes through its shortest decimal form.
        XCTAssertEqual(JSONValue(sdkValue: Float(0.1)), .number(0.1))
        XCTAssertEqual(JSONValue(sdkValue: CGFloat(1.5)), .number(1.5))
    }

    func testNonFiniteNumbersAreRejected() {
        XCTAssertNil(JSONValue(sdkValue: Double.nan))
        XCTAssertNil(JSONValue(sdkValue: Double.infinity))
        XCTAssertNil(JSONValue(sdkValue: Float.infinity))
        XCTAssertNil(JSONValue(sdkValue: NSNumber(value: Double.nan)))
    }

    func testNilAndNull() {
        let missing: Int? = nil
        let present: Int? = 5
        let nestedMissing: String?? = .some(nil)
        XCTAssertEqual(JSONValue(sdkValue: missing), .null)
        XCTAssertEqual(JSONValue(sdkValue: present), .number(5))
        XCTAssertEqual(JSONValue(sdkValue: nestedMissing), .null)
        XCTAssertEqual(JSONValue(sdkValue: NSNull()), .null)
        let optionals: [Bool?] = [true, nil]
        XCTAssertEqual(JSONValue(sdkValue: optionals), .array([.bool(true), .null]))
    }

    func testArrays() {
        XCTAssertEqual(JSONValue(sdkValue: ["a", "b"]), .array([.string("a"), .string("b")]))
        XCTAssertEqual(JSONValue(sdkValue: [1.5, 2]), .array([.number(1.5), .number(2)]))
        let mixed: [any Sendable] = [true, 1, "1", 1.5, NSNull()]
        XCTAssertEqual(JSONValue(sdkValue: mixed), .array([.bool(true), .number(1), .string("1"), .number(1.5), .null]))
        XCTAssertEqual(JSONValue(sdkValue: [[1, 2], [3]]), .array([.array([.number(1), .number(2)]), .array([.number(3)])]))
        XCTAssertEqual(JSONValue(sdkValue: [Int]()), .array([]))
    }

    func testNestedDictionariesAreSortedByKey() {
        let inner: [String: any Sendable] = ["y": [1, 2], "x": ["deep": true] as [String: any Sendable]]
        let params: [String: any Sendable] = ["b": true, "a": 1, "c": "x", "n": inner, "list": [inner, 3] as [any Sendable]]
        let value = JSONValue(sdkParams: params)
        XCTAssertEqual(value?.objectMembers?.map(\.key), ["a", "b", "c", "list", "n"])
        XCTAssertEqual(value?["n"]?.objectMembers?.map(\.key), ["x", "y"])
        XCTAssertEqual(value?["a"], .number(1))
        XCTAssertEqual(value?["b"], .bool(true))
        XCTAssertEqual(
            value.map(JSONWriter.write),
            #"{"a":1,"b":true,"c":"x","list":[{"x":{"deep":true},"y":[1,2]},3],"n":{"x":{"deep":true},"y":[1,2]}}"#)
        XCTAssertEqual(JSONValue(sdkValue: inner), value?["n"])
    }

    func testParamsAreSortedByUTF8Bytes() {
        let params: [String: any Sendable] = ["é": 1, "z": 2, "Z": 3, "😀": 4]
        XCTAssertEqual(JSONValue(sdkParams: params)?.objectMembers?.map(\.key), ["Z", "z", "é", "😀"])
        XCTAssertEqual(JSONValue(sdkParams: [:]), .object([]))
    }

    func testUnsupportedValues() {
        XCTAssertNil(JSONValue(sdkValue: Date()))
        XCTAssertNil(JSONValue(sdkValue: Data([1, 2])))
        XCTAssertNil(JSONValue(sdkValue: Custom()))
        XCTAssertNil(JSONValue(sdkValue: URL(string: "https://example.com")!))
        XCTAssertNil(JSONValue(sdkValue: [1: "one"]))
        XCTAssertNil(JSONValue(sdkValue: [Date()]))
        XCTAssertNil(JSONValue(sdkParams: ["ok": 1, "bad": Date()]))
        XCTAssertNil(JSONValue(sdkParams: ["nested": ["bad": Custom()] as [String: any Sendable]]))
    }

    func testNSNumberBooleansAndNumbers() {
        // Observed on this platform: NSNumber(value: true) has objCType "c" and a boolean class;
        // NSNumber(value: 1) does not, so the two convert differently.
        XCTAssertEqual(JSONValue(sdkValue: NSNumber(value: true)), .bool(true))
        XCTAssertEqual(JSONValue(sdkValue: NSNumber(value: false)), .bool(false))
        XCTAssertEqual(JSONValue(sdkValue: NSNumber(value: 1)), .number(1))
        XCTAssertEqual(JSONValue(sdkValue: NSNumber(value: 0)), .number(0))
        XCTAssertEqual(JSONValue(sdkValue: NSNumber(value: Int8(1))), .number(1))
        XCTAssertEqual(JSONValue(sdkValue: NSNumber(value: UInt8(0))), .number(0))
        XCTAssertEqual(JSONValue(sdkValue: NSNumber(value: 2.5)), .number(2.5))
        XCTAssertEqual(JSONValue(sdkValue: NSNumber(value: Int64(-3))), .number(-3))
        XCTAssertTrue(JSONValue.isBooleanNumber(NSNumber(value: true)))
        XCTAssertFalse(JSONValue.isBooleanNumber(NSNumber(value: 1)))
        XCTAssertFalse(JSONValue.isBooleanNumber(NSNumber(value: Int8(1))))
    }

    func testNSNumbersInsideCollections() {
        let values: [any Sendable] = [NSNumber(value: true), NSNumber(value: 1), NSNumber(value: 0.5)]
        XCTAssertEqual(JSONValue(sdkValue: values), .array([.bool(true), .number(1), .number(0.5)]))
        let params: [String: any Sendable] = ["flag": NSNumber(value: false), "count": NSNumber(value: 0)]
        XCTAssertEqual(JSONValue(sdkParams: params).map(JSONWriter.write), #"{"count":0,"flag":false}"#)
    }
}
