import Foundation
import TargetingBase
import TargetingEngine
import TargetingProfiles
import XCTest

@testable import TargetingBatch
import Targeting
import TargetingTestSupport

/// A batch cut into chunks of lines gives what reading the file line by line gives (`LineReader`,
/// then `ProfileReader`, `Program.decide` and `DecisionPrinter`), for any chunk size and any
/// number of jobs: the chunk boundaries fall inside lines, between a CR and its LF, inside a BOM
/// and inside lines too long to keep.
final class ChunkedBatchTests: XCTestCase {
    static let maxLineBytes = 300

    /// Standard output with each diagnostic inserted where it came, as `path:line: message`.
    static func reference(path: String, program: Program, printer: DecisionPrinter, now: Int64) -> String {
        var transcript = ""
        var lines = LineReader(path: path, maxLineBytes: maxLineBytes)!
        let placements = Array(program.placements.indices)
        while let line = lines.next() {
            guard let bytes = line.bytes else {
                transcript += "!\(path):\(line.number): \(LineChunk.tooLongMessage)\n"
                continue
            }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            switch ProfileReader.read(bytes) {
            case .failure(let error):
                transcript += "!\(path):\(line.number): \(error.message)\n"
            case .success(let profile):
                switch program.decide(placements: placements, for: profile, now: now) {
                case .failure(let error): transcript += "!\(path):\(line.number): \(error.message)\n"
                case .success(let decisions): transcript += decisions.map { printer.text($0) }.joined()
                }
            }
        }
        return transcript
    }

    static func chunked(path: String, batch: BatchResolver, blockBytes: Int) -> String {
        var transcript = ""
        var reader = LineChunkReader(path: path, blockBytes: blockBytes, maxLineBytes: maxLineBytes)!
        _ = batch.run(&reader) { output, linesBefore in
            var written = 0
            for (index, rejection) in output.rejections.enumerated() {
                transcript += String(decoding: output.bytes[written..<rejection.offset], as: UTF8.self)
                written = rejection.offset
                let diagnostic = output.diagnostic(index, file: path, linesBefore: linesBefore)
                transcript += "!\(diagnostic.file):\(diagnostic.line): \(diagnostic.message)\n"
            }
            transcript += String(decoding: output.bytes[written...], as: UTF8.self)
        }
        return transcript
    }

    func testChunksGiveTheLineReadersRecordsForAnyChunkSizeAndJobs() throws {
        guard case .success(let loaded) = LoadedRules.load(path: RepositoryFiles.rules), let program = loaded.program else {
            return XCTFail("the shipped rules load")
        }
        let now = try XCTUnwrap(Timestamp.parse("2026-11-29T12:00:00Z"))
        let corpus = RepositoryFiles.text(RepositoryFiles.example("profiles/corpus.jsonl")).split(separator: "\n").prefix(24).map(String.init)
        let tooLong = #"{"id":"long","custom_attributes":{"note":""# + String(repeating: "x", count: 400) + #""}}"#
        var body = "\u{FEFF}" + corpus[0] + "\r\n" + corpus[1] + "\r" + corpus[2] + "\n\n  \t \r\n" + "{not json\r\r\n"
        body += tooLong + "\r\n" + corpus[3] + "\n" + tooLong + "\r" + tooLong + "\n"
        body += #"{"custom_attributes":{"experience":"beginner","interests":"sports"}}"# + "\r"
        body += corpus[4...].joined(separator: "\r\n") + "\n" + "[1,2]" + "\r\r" + corpus[5]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chunked-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let endings = ["", "\n", "\r", "\r\n", "\n\n", "\r\n  ", "\n" + tooLong, "\n" + tooLong + "\n"]
        for (index, ending) in endings.enumerated() {
            let path = directory.appendingPathComponent("p\(index).jsonl").path
            try Data((body + ending).utf8).write(to: URL(fileURLWithPath: path))
            for format in [OutputFormat.json, .text] {
                let printer = DecisionPrinter(format: format, explain: false)
                let expected = ChunkedBatchTests.reference(path: path, program: program, printer: printer, now: now)
                XCTAssertGreaterThanOrEqual(expected.components(separatedBy: LineChunk.tooLongMessage).count, 4, expected)
                for jobs in [1, 2, 3] {
                    let batch = BatchResolver(program: program, placements: Array(program.placements.indices), now: now,
                                              onlyID: nil, printer: printer, jobs: jobs)
                    for blockBytes in [1, 2, 3, 4, 7, 64, 301, 1 << 16] {
                        let chunked = ChunkedBatchTests.chunked(path: path, batch: batch, blockBytes: blockBytes)
                        XCTAssertEqual(chunked, expected, "ending \(index), \(format), jobs \(jobs), blocks of \(blockBytes)")
                    }
                }
            }
        }
    }

    func testAnEmptyFileHasNoChunks() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString).jsonl").path
        for content in ["", "\u{FEFF}"] {
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            var reader = try XCTUnwrap(LineChunkReader(path: path, blockBytes: 2))
            var chunk = LineChunk()
            XCTAssertFalse(reader.next(into: &chunk))
        }
        try? FileManager.default.removeItem(atPath: path)
        XCTAssertNil(LineChunkReader(path: path))
    }
}
