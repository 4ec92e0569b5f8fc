import XCTest

@testable import TargetingProfiles

extension XCTestCase {
    /// The profile `ProfileReader` reads from `line`, failing the test when it is rejected.
    func readProfile(_ line: String, file: StaticString = #filePath, line number: UInt = #line) -> Profile? {
        switch ProfileReader.read(Array(line.utf8)) {
        case .success(let profile): return profile
        case .failure(let error):
            XCTFail("profile rejected: \(error.message)", file: file, line: number)
            return nil
        }
    }

    /// Why `ProfileReader` rejects `line`, failing the test when it is accepted.
    func profileRejection(_ line: String, file: StaticString = #filePath, line number: UInt = #line) -> String {
        guard case .failure(let error) = ProfileReader.read(Array(line.utf8)) else {
            XCTFail("profile accepted: \(line)", file: file, line: number)
            return ""
        }
        return error.message
    }
}
