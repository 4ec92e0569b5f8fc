import Foundation
import XCTest
import TargetingBase
import TargetingFormatting

/// The README's rule and test examples are written as `targeting fmt` writes them, so a reader
/// who copies one and runs `fmt --check` sees no change.
final class ReadmeExamplesTests: XCTestCase {
    /// Code blocks without a language tag whose first line starts a declaration or a test.
    static func examples() throws -> [(line: Int, text: String, path: String)] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let lines = try String(contentsOf: readme, encoding: .utf8).components(separatedBy: "\n")
        let starts = ["attribute ", "input ", "segment ", "audience ", "placement ", "experiment ", "holdout ", "test \""]
        var found: [(line: Int, text: String, path: String)] = []
        var index = 0
        while index < lines.count {
            guard lines[index] == "```" else {
                if lines[index].hasPrefix("```") { index = (lines[(index + 1)...].firstIndex(of: "```") ?? lines.count) + 1 } else { index += 1 }
                continue
            }
            let end = lines[(index + 1)...].firstIndex(of: "```") ?? lines.count
            let body = Array(lines[(index + 1)..<end])
            if let first = body.first(where: { !$0.isEmpty }), starts.contains(where: first.hasPrefix) {
                let path = first.hasPrefix("test \"") ? "example.tests" : "example.rules"
                found.append((index + 2, body.joined(separator: "\n") + "\n", path))
            }
            index = end + 1
        }
        return found
    }

    func testRuleAndTestExamplesAreCanonicallyFormatted() throws {
        let examples = try Self.examples()
        XCTAssertGreaterThanOrEqual(examples.count, 5, "the README's rule examples were not found")
        for example in examples {
            switch Formatter.format(SourceFile(path: example.path, text: example.text)) {
            case .success(let formatted):
                XCTAssertEqual(formatted, example.text, "README.md:\(example.line): the example is not as `targeting fmt` writes it")
            case .failure(let error):
                XCTFail("README.md:\(example.line): the example does not parse: \(error.message)")
            }
        }
    }
}
