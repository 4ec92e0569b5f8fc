import XCTest
import Targeting
import TargetingBase
import TargetingEngine

/// The compiled program of one rules file `q.rules` with text `text`; a failure at the caller
/// when the rules have errors (warnings are fine).
package func checkedProgram(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Program {
    let loaded = LoadedRules(sources: [SourceFile(path: "q.rules", text: text)])
    XCTAssertFalse(loaded.hasErrors, "\(loaded.diagnostics)", file: file, line: line)
    return loaded.program!
}
