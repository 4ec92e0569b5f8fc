import Foundation
import XCTest
@testable import TargetingBatch
import TargetingTestSupport

/// The chunks of whole lines that batches and ingest read: split, numbered and rejected exactly
/// as `LineReader` does, whatever the size of the blocks read.
final class LineChunkReaderTests: TemporaryDirectoryTestCase {
    private func lines(_ path: String, maxLineBytes: Int, chunkBytes: Int) -> [(Int, [UInt8]?)] {
        guard var reader = LineChunkReader(path: path, blockBytes: chunkBytes, maxLineBytes: maxLineBytes) else {
            XCTFail("cannot open \(path)")
            return []
        }
        var result: [(Int, [UInt8]?)] = []
        var chunk = LineChunk()
        var linesBefore = 0
        while reader.next(into: &chunk) {
            linesBefore += chunk.forEachLine { number, bytes in result.append((linesBefore + number, bytes.map { Array($0) })) }
        }
        return result
    }

    /// The lines of `bytes` read as a stream (standard input) that delivers `piece` bytes at a time.
    private func streamed(_ bytes: [UInt8], maxLineBytes: Int, piece: Int) -> [(Int, [UInt8]?)] {
        final class Pieces: @unchecked Sendable {
            var rest: ArraySlice<UInt8>
            let size: Int
            init(_ bytes: [UInt8], size: Int) { rest = bytes[...]; self.size = size }
            func next() -> [UInt8] {
                let taken = Array(rest.prefix(size))
                rest = rest.dropFirst(size)
                return taken
            }
        }
        let pieces = Pieces(bytes, size: piece)
        var reader = LineChunkReader(stream: { pieces.next() }, maxLineBytes: maxLineBytes)
        var result: [(Int, [UInt8]?)] = []
        var chunk = LineChunk()
        var linesBefore = 0
        while reader.next(into: &chunk) {
            linesBefore += chunk.forEachLine { number, bytes in result.append((linesBefore + number, bytes.map { Array($0) })) }
        }
        return result
    }

    private func expected(_ path: String, maxLineBytes: Int) -> [(Int, [UInt8]?)] {
        guard var reader = LineReader(path: path, maxLineBytes: maxLineBytes) else {
            XCTFail("cannot open \(path)")
            return []
        }
        var result: [(Int, [UInt8]?)] = []
        while let line = reader.next() { result.append((line.number, line.bytes)) }
        return result
    }

    func testAgreesWithLineReaderOnEveryLineEndAndLengthAcrossChunkEdges() {
        var generator = ReferenceDraw.Generator(seed: 20261204)
        let alphabet: [UInt8] = Array("ab{}\" \t\n\r\r\n".utf8)
        for round in 0..<400 {
            var bytes = (0..<generator.next(60)).map { _ in alphabet[generator.next(alphabet.count)] }
            if round % 5 == 0 { bytes = [0xEF, 0xBB, 0xBF] + bytes }
            if round % 11 == 0 { bytes = [0xEF, 0xBB] }
            let path = directory.write("input-\(round).jsonl", bytes: bytes)
            let maxLineBytes = 1 + generator.next(8)
            let want = expected(path, maxLineBytes: maxLineBytes)
            for chunkBytes in [1, 2, 3, 7, 64] {
                let got = lines(path, maxLineBytes: maxLineBytes, chunkBytes: chunkBytes)
                XCTAssertEqual(got.map(\.0), want.map(\.0), "\(bytes), chunks of \(chunkBytes)")
                XCTAssertEqual(got.map(\.1), want.map(\.1), "\(bytes), chunks of \(chunkBytes)")
                // Standard input arriving in pieces of that size (a BOM split across them included).
                let read = streamed(bytes, maxLineBytes: maxLineBytes, piece: chunkBytes)
                XCTAssertEqual(read.map(\.0), want.map(\.0), "\(bytes), stream pieces of \(chunkBytes)")
                XCTAssertEqual(read.map(\.1), want.map(\.1), "\(bytes), stream pieces of \(chunkBytes)")
            }
        }
    }

    func testALineTooLongIsReportedAndTheNextLineIsRead() {
        let path = directory.write("long.jsonl", "abc\n" + String(repeating: "x", count: 40) + "\r\nde\r" + String(repeating: "y", count: 9))
        let got = lines(path, maxLineBytes: 8, chunkBytes: 4)
        XCTAssertEqual(got.map(\.0), [1, 2, 3, 4])
        XCTAssertEqual(got.map(\.1), [Array("abc".utf8), nil, Array("de".utf8), nil])
    }

    func testADirectoryOrAMissingFileIsNotOpened() {
        XCTAssertNil(LineChunkReader(path: directory.path))
        XCTAssertNil(LineChunkReader(path: directory.file("missing.jsonl")))
    }
}
