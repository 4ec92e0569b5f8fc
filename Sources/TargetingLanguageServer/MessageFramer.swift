/// JSON-RPC messages over a byte stream, framed as LSP frames them: a header of
/// `Name: value` lines ended by an empty line (`\r\n\r\n`), whose `Content-Length` gives the
/// body's length in bytes.
package struct MessageFramer: Sendable {
    /// What the next part of the stream holds.
    package enum Frame: Hashable, Sendable {
        /// A message body.
        case message([UInt8])
        /// A header the server cannot read; its bytes are dropped.
        case malformed(String)
    }

    /// The largest header accepted; past this without an empty line, the header is dropped.
    static let maxHeaderBytes = 8_192

    private var buffer: [UInt8] = []
    private var start = 0

    /// Creates an empty framer.
    package init() {}

    /// Adds bytes read from the stream.
    package mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 65_536, start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil when more bytes are needed.
    package mutating func next() -> Frame? {
        guard let end = headerEnd() else {
            if buffer.count - start > MessageFramer.maxHeaderBytes {
                start = buffer.count
                return .malformed("a message header is longer than \(MessageFramer.maxHeaderBytes) bytes")
            }
            return nil
        }
        let header = String(decoding: buffer[start..<end], as: UTF8.self)
        var length: Int?
        for line in header.split(separator: "\r\n", omittingEmptySubsequences: true) {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            if parts[0].trimmingSpaces.lowercased() == "content-length" {
                length = Int(parts[1].trimmingSpaces)
            }
        }
        let bodyStart = end + 4
        guard let length, length >= 0 else {
            start = bodyStart
            return .malformed("a message header has no valid `Content-Length`")
        }
        guard buffer.count - bodyStart >= length else { return nil }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        start = bodyStart + length
        return .message(body)
    }

    /// The index of the `\r\n\r\n` that ends the header at `start`.
    private func headerEnd() -> Int? {
        var index = start
        while index + 3 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 { return index }
            index += 1
        }
        return nil
    }

    /// A message body with its header, ready to write.
    package static func frame(_ body: [UInt8]) -> [UInt8] {
        Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
