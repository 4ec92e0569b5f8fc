import Foundation
import XCTest
@testable import TargetingBase
@testable import TargetingBatch
import TargetingTestSupport

/// The chunked line reader behind every JSON Lines input.
final class LineReaderTests: TemporaryDirectoryTestCase {

    private func lines(_ bytes: [UInt8], maxLineBytes: Int = LineReader.defaultMaxLineBytes) -> [(Int, String?)] {
        let path = directory.write("input.jsonl", bytes: bytes)
        guard var reader = LineReader(path: path, maxLineBytes: maxLineBytes) else {
            XCTFail("cannot open \(path)")
            return []
        }
        var result: [(Int, String?)] = []
        while let line = reader.next() {
            result.append((line.number, line.bytes.map { String(decoding: $0, as: UTF8.self) }))
        }
        return result
    }

    /// The streaming reader and the source line table (behind `SourceFile`, diagnostics and
    /// `given events`) split every input into the same numbered lines.
    func testAgreesWithTheSourceLineTable() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = Array("ab{}\"\n\r\r\n ".utf8)
        for round in 0..<300 {
            var bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            if round % 7 == 0 { bytes = [0xEF, 0xBB, 0xBF] + bytes }
            let table = SourceFile(path: "t", bytes: bytes)
            var expected = (1...table.lineStarts.count).map { (number: $0, text: String(decoding: table.lineBytes($0), as: UTF8.self)) }
            // A final line break starts no further line for a reader.
            if let last = expected.last, last.text.isEmpty, table.lineStarts.count > 1 || table.bytes.isEmpty { expected.removeLast() }
            let got = lines(bytes)
            XCTAssertEqual(got.map(\.0), expected.map(\.number), "\(bytes)")
            XCTAssertEqual(got.map(\.1), expected.map(\.text), "\(bytes)")
        }
    }

    /// Each line's offset is where its bytes lie in the file (a store reads its lines again there),
    /// across BOMs, every line end and the reader's chunk boundaries.
    func testOffsetsPointAtEachLinesBytes() {
        var generator = SystemRandomNumberGenerator()
        let ends: [[UInt8]] = [[0x0A], [0x0D, 0x0A], [0x0D]]
        for round in 0..<4 {
            var bytes: [UInt8] = round % 2 == 0 ? [0xEF, 0xBB, 0xBF] : []
            while bytes.count < (round < 2 ? 5_000 : 2_200_000) {
                bytes += Array(repeating: UInt8(ascii: "a") + UInt8.random(in: 0...25, using: &generator), count: Int.random(in: 0...3_000, using: &generator))
                bytes += ends.randomElement(using: &generator)!
            }
            let path = directory.write("offsets.jsonl", bytes: bytes)
            guard var reader = LineReader(path: path) else { return XCTFail("cannot open \(path)") }
            var count = 0
            while let line = reader.next() {
                count += 1
                guard let content = line.bytes else { return XCTFail("line \(line.number) too long") }
                XCTAssertEqual(Array(bytes[line.offset..<(line.offset + content.count)]), content, "line \(line.number)")
            }
            XCTAssertGreaterThan(count, 0)
        }
    }

    func testLFCRLFAndLoneCREndLinesAndNumbersCountEveryLine() {
        let got = lines(Array("a\nb\r\nc\rd\n\ne".utf8))
        XCTAssertEqual(got.map(\.0), [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(got.map(\.1), ["a", "b", "c", "d", "", "e"])
    }

    func testBOMIsSkippedOnlyAtTheStart() {
        let got = lines([0xEF, 0xBB, 0xBF] + Array("x\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("y".utf8))
        XCTAssertEqual(got.map(\.1), ["x", "\u{FEFF}y"])
    }

    func testEmptyFileHasNoLinesAndAFinalNewlineAddsNone() {
        XCTAssertTrue(lines([]).isEmpty)
        XCTAssertEqual(lines(Array("only\n".utf8)).map(\.1), ["only"])
    }

    func testATooLongLineIsReportedWithoutItsBytesAndTheNextLineSurvives() {
        let long = String(repeating: "x", count: 100)
        let got = lines(Array("short\n\(long)\nafter\n".utf8), maxLineBytes: 50)
        XCTAssertEqual(got.count, 3)
        XCTAssertEqual(got[0].1, "short")
        XCTAssertEqual(got[1].0, 2)
        XCTAssertNil(got[1].1)
        XCTAssertEqual(got[2].1, "after")
    }

    func testLinesSpanningReadChunksAreJoined() {
        // Chunks are 1 MiB: put a CRLF exactly across the boundary and a line across it.
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: (1 << 20) - 1)
        bytes += [0x0D, 0x0A]
        bytes += Array("tail-one\n".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "b"), count: 10)
        let got = lines(bytes, maxLineBytes: 2 << 20)
        XCTAssertEqual(got.count, 3)
        XCTAssertEqual(got[0].1?.count, (1 << 20) - 1)
        XCTAssertEqual(got[1].1, "tail-one")
        XCTAssertEqual(got[2].1, "bbbbbbbbbb")
    }

    func testADirectoryOrAMissingFileCannotBeOpened() {
        XCTAssertNil(LineReader(path: directory.path))
        XCTAssertNil(LineReader(path: directory.file("absent.jsonl")))
    }
}
