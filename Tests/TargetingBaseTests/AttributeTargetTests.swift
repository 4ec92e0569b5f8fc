import TargetingBase
import XCTest

final class AttributeTargetTests: XCTestCase {
    func testWrittenSpellsBuiltinFieldsAfterProfile() {
        XCTAssertEqual(AttributeTarget.builtin("age").written, "profile.age")
        XCTAssertEqual(AttributeTarget.custom("experience").written, "experience")
        XCTAssertEqual(AttributeTarget.custom("app.theme").written, "app.theme")
        XCTAssertEqual(AttributeTarget.builtin("customer_user_id").description, "profile.customer_user_id")
    }

    func testBareNameIsTheNameWithoutProfile() {
        XCTAssertEqual(AttributeTarget.builtin("id").bareName, "id")
        XCTAssertEqual(AttributeTarget.custom("account").bareName, "account")
        XCTAssertEqual(AttributeTarget.custom("profile.x").bareName, "profile.x")
    }

    func testInitWrittenReadsBuiltinsAndCustomKeys() {
        XCTAssertEqual(AttributeTarget(written: "profile.age"), .builtin("age"))
        XCTAssertEqual(AttributeTarget(written: "profile.a.b"), .builtin("a.b"))
        XCTAssertEqual(AttributeTarget(written: "experience"), .custom("experience"))
        XCTAssertEqual(AttributeTarget(written: "profiles.age"), .custom("profiles.age"))
        XCTAssertEqual(AttributeTarget(written: "profile"), .custom("profile"))
        XCTAssertEqual(AttributeTarget(written: "Profile.age"), .custom("Profile.age"))
        XCTAssertEqual(AttributeTarget(written: "experience".dropFirst(2)), .custom("perience"))
        // `profile.` alone names the built-in field `""`, which the checker reports as unknown.
        XCTAssertEqual(AttributeTarget(written: "profile."), .builtin(""))
        XCTAssertNil(AttributeTarget(written: ""))
    }

    func testWrittenRoundTrips() {
        let targets: [AttributeTarget] = [.builtin("age"), .builtin("id"), .builtin("birthday.month"), .builtin(""),
                                          .custom("experience"), .custom("app.theme"), .custom("a-b_c"), .custom("profile")]
        for target in targets {
            XCTAssertEqual(AttributeTarget(written: target.written), target, target.written)
        }
        for text in ["profile.age", "profile.", "level", "x.y", "profile_age"] {
            XCTAssertEqual(AttributeTarget(written: text)?.written, text)
        }
        // A custom key that begins with `profile.` reads back as the built-in field.
        XCTAssertEqual(AttributeTarget(written: AttributeTarget.custom("profile.age").written), .builtin("age"))
        XCTAssertNil(AttributeTarget(written: AttributeTarget.custom("").written))
    }

    func testBuiltinSpelling() {
        XCTAssertTrue(AttributeTarget.isBuiltinSpelling("profile.age"))
        XCTAssertTrue(AttributeTarget.isBuiltinSpelling("profile."))
        XCTAssertFalse(AttributeTarget.isBuiltinSpelling("profile"))
        XCTAssertFalse(AttributeTarget.isBuiltinSpelling("age"))
    }
}
