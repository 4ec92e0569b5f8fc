import TargetingBase
import XCTest
@testable import TargetingStore
import TargetingTestSupport
@testable import TargetingProfiles

/// A store keeps a touched profile as its line plus a `ProfileEdit`: replaying the edit must
/// give exactly the profile that applying the same answers to a whole `Profile` gives (member
/// order, removals, re-additions and Adapty's limits included).
final class ProfileEditTests: TemporaryDirectoryTestCase {
    /// A small deterministic generator (no randomness that changes from run to run).
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    let bases = [
        #"{"id":"u1","email":"a@b.c","country":"DE","custom_attributes":{"k1":"x","k2":2,"k3":"y"}}"#,
        #"{"id":"u2"}"#,
        #"{"id":"u3","first_name":null,"custom_attributes":null}"#,
        "{\"id\":\"full\",\"custom_attributes\":{" + (1...29).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}}",
        "{\"id\":\"esc\\\"aped\",\"note\":\"t\\u00e9\",\"custom_attributes\":{\"k1\":\"v\"}}",
        #"{"id":"u4", "country":"DE","first_name":"f1","gender":true,"custom_attributes":{"k1":"x","k2":true,"k3":"y","new":"v1"}}"#,
        #"{"id":"u5","email":"café","country":"DE","custom_attributes":{"k1":"x"}}"#,
        // Spacing, a string array, numbers in other spellings, booleans stored as 1 and 0,
        // `custom_attributes` before other fields, and a history.
        #"{ "custom_attributes" : { "k1" : true, "k2" : 0.50, "k3" : 1e2 }, "id" : "u6", "tags" : [ "a" , "b" ], "score" : 1.50, "flag" : false, "nothing" : null, "history" : {"shown":{"main_paywall":["2026-12-01T10:00:00Z"]}} }"#,
        #"{"id":"u7","tags":[],"custom_attributes":{},"history":{}}"#,
    ]

    func answer(_ generator: inout Generator) -> Answer {
        let fields = ["email", "first_name", "country", "gender"]
        let keys = ["k1", "k2", "k3", "k30", "k31", "new"]
        let values: [JSONValue?] = [nil, .string("v\(generator.next(3))"), .number(Double(generator.next(5))), .string(""), .string(String(repeating: "z", count: 51)), .bool(true),
                                    .string(["x", "y", "x"][generator.next(3)])]
        if generator.next(3) == 0 {
            let value: JSONValue? = generator.next(3) == 0 ? nil : [.string("f\(generator.next(3))"), .string("DE"), .null, .bool(true)][generator.next(4)]
            return Answer(screen: nil, element: "e", target: .builtin(fields[generator.next(fields.count)]), value: value)
        }
        return Answer(screen: nil, element: "e", target: .custom(keys[generator.next(keys.count)]), value: values[generator.next(values.count)])
    }

    func testReplayingAnEditGivesTheProfileTheAnswersMake() {
        var generator = Generator(state: 20261202)
        var checkedWrites = 0
        defer { XCTAssertGreaterThan(checkedWrites, 1_500, "lines written from their scan") }
        for (number, base) in bases.enumerated() {
            let bytes = Array(base.utf8)
            // After a line before it, so the base is read at an offset.
            let path = directory.write("store-\(number).jsonl", "{\"id\":\"before\"}\r\n" + base + "\n")
            guard let file = StoreFile(path: path) else { return XCTFail("cannot open \(path)") }
            let range = 17..<(17 + bytes.count)
            guard case .success(let original) = ProfileReader.read(bytes) else { return XCTFail("unreadable base \(base)") }
            for _ in 0..<300 {
                var whole = original
                var edit = ProfileEdit()
                edit.baseCustomCount = original.customCount
                var edited = EditedProfile(edit: edit, base: .line(file, range))
                for _ in 0..<generator.next(12) {
                    let given = answer(&generator)
                    let expected = whole.record(.answer(given, warnings: []))
                    XCTAssertEqual(edited.record(.answer(given, warnings: [])), expected, "\(given) on \(base)")
                    XCTAssertEqual(edited.customCount, whole.customCount)
                    XCTAssertLessThanOrEqual(edited.customCount, edited.customCountBound)
                    XCTAssertEqual(edited["first_name"], whole["first_name"])
                    XCTAssertEqual(edited.hasCustom("k1"), whole.hasCustom("k1"))
                    if generator.next(4) == 0 {
                        let placement = ["main_paywall", "other"][generator.next(2)]
                        let at = Int64(1_796_000_000_000 + generator.next(3) * 60_000)
                        edited.recordShown(placement, at: at)
                        whole.recordShown(placement, at: at)
                    }
                }
                let replayed = edited.edit.applied(to: original)
                XCTAssertEqual(JSONWriter.write(replayed.json), JSONWriter.write(whole.json), base)
                // The store's comparison on the edit alone agrees with comparing whole profiles.
                var scan = ProfileScan()
                let kept = bytes.withUnsafeBufferPointer { scan.scan($0) ? edited.edit.keepsContent(of: scan, in: $0) : nil }
                if let kept { XCTAssertEqual(kept, replayed.hasSameContent(as: original), "\(edited.edit.changes) on \(base)") }
                // Writing from the scan and the changes gives the bytes of writing the replayed profile.
                var written: [UInt8] = []
                if bytes.withUnsafeBufferPointer({ scan.scan($0) && edited.edit.write(over: scan, in: $0, to: &written) }) {
                    XCTAssertEqual(String(decoding: written, as: UTF8.self), JSONWriter.write(replayed.json), "\(edited.edit.changes) on \(base)")
                    checkedWrites += 1
                }
            }
        }
    }

    func testAFreshEditStartsFromTheID() {
        var edited = EditedProfile(edit: ProfileEdit(), base: .fresh(id: "new\"one"))
        var whole = Profile()
        whole.setField("id", .string("new\"one"))
        for answer in [Answer(screen: nil, element: "e", target: .custom("goal"), value: .string("run")),
                       Answer(screen: nil, element: "e", target: .builtin("email"), value: .string("a@b.c")),
                       Answer(screen: nil, element: "e", target: .custom("goal"), value: nil),
                       Answer(screen: nil, element: "e", target: .custom("goal"), value: .number(3))] {
            XCTAssertEqual(edited.record(.answer(answer, warnings: [])), whole.record(.answer(answer, warnings: [])))
        }
        var scan = ProfileScan()
        let base = EditedProfile.profile(of: edited.base, scan: &scan)!
        XCTAssertEqual(JSONWriter.write(edited.edit.applied(to: base).json), #"{"id":"new\"one","email":"a@b.c","custom_attributes":{"goal":3}}"#)
    }
}
