import Foundation
import TargetingTestSupport
import XCTest
@testable import TargetingBase
@testable import TargetingCLI

/// Text collected from one stream, safe to append to from any thread.
final class OutputBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var collected = ""

    func append(_ text: String) {
        lock.lock()
        collected += text
        lock.unlock()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }
}

/// What one run of the command line produced.
struct CLIResult {
    var status: Int32
    var out: String
    var err: String

    /// Standard output split into lines, without the empty piece after the final newline.
    var outLines: [String] { CLIResult.lines(out) }
    /// Standard error split into lines.
    var errLines: [String] { CLIResult.lines(err) }

    static func lines(_ text: String) -> [String] {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

/// Runs `targeting` in-process and finds the repository's shipped files.
///
/// Commands resolve relative paths against the process's working directory, so tests always
/// pass absolute paths.
enum CLIHarness {
    /// Runs `targeting ARGUMENTS…` with `stdin` as standard input.
    static func run(_ arguments: [String], stdin: String = "", currentDirectory: String? = nil) -> CLIResult {
        let out = OutputBuffer()
        let err = OutputBuffer()
        let input = Array(stdin.utf8)
        let io = CommandIO(currentDirectory: currentDirectory ?? FileManager.default.currentDirectoryPath,
                           out: { out.append($0) },
                           err: { err.append($0) },
                           stdin: { input })
        let status = TargetingCLI.run(["targeting"] + arguments, io: io)
        return CLIResult(status: status, out: out.text, err: err.text)
    }

    /// The package root (the directory holding Package.swift).
    static var packageRoot: URL { RepositoryFiles.root }

    /// The shipped rules directory.
    static var rulesPath: String { packageRoot.appendingPathComponent("Rules").path }

    /// A file under Examples/.
    static func example(_ relative: String) -> String {
        packageRoot.appendingPathComponent("Examples").appendingPathComponent(relative).path
    }

    /// Reads a file as bytes (empty when absent).
    static func bytes(_ path: String) -> [UInt8] {
        (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
    }

    /// Reads a file as text (empty when absent).
    static func text(_ path: String) -> String {
        String(decoding: bytes(path), as: UTF8.self)
    }

    /// A JSON line parsed and written back with sorted keys, for comparisons that ignore key order.
    static func canonical(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        switch JSONParser.parse(Array(json.utf8)) {
        case .success(let value): return JSONWriter.writeSorted(value)
        case .failure(let error):
            XCTFail("not JSON (\(error.message)): \(json)", file: file, line: line)
            return json
        }
    }

    /// A JSON object's keys in the order written.
    static func keys(_ json: String) -> [String]? {
        guard case .success(.object(let members)) = JSONParser.parse(Array(json.utf8)) else { return nil }
        return members.map(\.key)
    }

    /// A JSON object's member, parsed.
    static func member(_ json: String, _ key: String) -> JSONValue? {
        guard case .success(let value) = JSONParser.parse(Array(json.utf8)) else { return nil }
        return value[key]
    }
}
