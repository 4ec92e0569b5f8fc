import Foundation
import XCTest
@testable import TargetingBase
@testable import TargetingStore
import TargetingTestSupport
@testable import TargetingProfiles

/// The store reads its lines again from the file it opened; when that file no longer holds
/// them, saving fails and leaves no temporary file (the caller reports the store unchanged).
final class ProfileStoreTests: TemporaryDirectoryTestCase {
    private func setGoal(_ profile: inout EditedProfile) -> Bool {
        profile.record(.answer(Answer(screen: nil, element: "goal", target: .custom("goal"), value: .string("run")), warnings: [])).changedProfile
    }

    func testUnchangedAndChangedLinesAreReadAgainFromTheFile() throws {
        let path = directory.write("profiles.jsonl", "\u{FEFF}{\"id\":\"a\",  \"x\":1}\r\n\n{\"id\":\"b\"}\r{\"id\":\"c\",\"y\":[\"p\"]}")
        var store = try ProfileStore.open(path)
        store.update(id: "b", setGoal)
        store.update(id: "d", setGoal)
        store.settle()
        XCTAssertEqual(store.changedCount, 2)
        try store.save()
        XCTAssertEqual(String(decoding: FileManager.default.contents(atPath: path)!, as: UTF8.self),
                       "{\"id\":\"a\",  \"x\":1}\n{\"id\":\"b\",\"custom_attributes\":{\"goal\":\"run\"}}\n{\"id\":\"c\",\"y\":[\"p\"]}\n{\"id\":\"d\",\"custom_attributes\":{\"goal\":\"run\"}}\n")
    }

    func testAStoreThatShrankIsNotWritten() throws {
        let path = directory.write("profiles.jsonl", "{\"id\":\"a\"}\n{\"id\":\"b\"}\n")
        var store = try ProfileStore.open(path)
        store.update(id: "a", setGoal)
        // Another writer that ignored the lock truncated the file in place.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 5)
        try handle.close()
        store.settle()
        XCTAssertThrowsError(try store.save()) { error in
            XCTAssertTrue((error as? StoreError)?.diagnostic.message.contains("cannot read store") ?? false, "\(error)")
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path).map { Array($0) }, Array("{\"id\"".utf8))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [])
    }
}
