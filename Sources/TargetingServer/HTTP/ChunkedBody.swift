/// A body sent with `Transfer-Encoding: chunked` (RFC 9112 §7.1): chunks of a hexadecimal
/// size, extensions ignored, then a last chunk of size 0 and optional trailer fields (read
/// and dropped).
enum ChunkedBody {
    enum Result {
        case incomplete
        case refused(HTTPStatus, String)
        /// The joined body, and the index just past the chunked message.
        case body([UInt8], end: Int)
    }

    /// The longest chunk-size line, extensions included.
    static let maxSizeLine = 1024

    static func read(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, limits: HTTPLimits) -> Result {
        var body: [UInt8] = []
        var position = start
        // Framing may be at most as large again as the body, plus a margin, so a client cannot
        // make the server hold megabytes of chunk extensions for a few bytes of body.
        let maxFraming = limits.maxBodyBytes + 64 * 1024
        while true {
            if position - start - body.count > maxFraming {
                return .refused(.payloadTooLarge, "the chunked body's framing exceeds \(maxFraming) bytes")
            }
            guard let (line, next) = nextLine(in: bytes, from: position) else {
                // The last byte may be the carriage return before the line feed, which is not
                // part of the line.
                return bytes.count - position - 1 > maxSizeLine ? .refused(.badRequest, "a chunk size line is too long") : .incomplete
            }
            guard line.count <= maxSizeLine else { return .refused(.badRequest, "a chunk size line is too long") }
            var size = 0, digits = 0
            for byte in bytes[line] {
                guard let digit = PercentDecoding.hexValue(byte) else {
                    if digits > 0, byte == UInt8(ascii: ";") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { break }
                    return .refused(.badRequest, "invalid chunk size")
                }
                digits += 1
                guard digits <= 8 else { return .refused(.payloadTooLarge, "the body exceeds \(limits.maxBodyBytes) bytes") }
                size = size << 4 | Int(digit)
            }
            guard digits > 0 else { return .refused(.badRequest, "invalid chunk size") }
            guard body.count + size <= limits.maxBodyBytes else { return .refused(.payloadTooLarge, "the body exceeds \(limits.maxBodyBytes) bytes") }
            position = next
            if size == 0 { break }
            guard bytes.count - position >= size else { return .incomplete }
            body.append(contentsOf: bytes[position..<(position + size)])
            position += size
            guard let (rest, after) = nextLine(in: bytes, from: position) else {
                return bytes.count - position >= 2 ? .refused(.badRequest, "a chunk does not end with a line break") : .incomplete
            }
            guard rest.isEmpty else { return .refused(.badRequest, "a chunk does not end with a line break") }
            position = after
        }
        // Trailer fields up to a blank line.
        let trailerStart = position
        while true {
            guard let (line, next) = nextLine(in: bytes, from: position) else {
                // As for the header section, the blank line's carriage return may be here already.
                return bytes.count - trailerStart - 1 > limits.maxHeaderBytes ? .refused(.headersTooLarge, "the trailer fields exceed \(limits.maxHeaderBytes) bytes") : .incomplete
            }
            position = next
            if line.isEmpty { return .body(body, end: position) }
            if position - trailerStart > limits.maxHeaderBytes { return .refused(.headersTooLarge, "the trailer fields exceed \(limits.maxHeaderBytes) bytes") }
        }
    }

    /// The line starting at `start` without its CRLF or LF, and the index after it.
    static func nextLine(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Range<Int>, Int)? {
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        guard index < bytes.count else { return nil }
        let end = index > start && bytes[index - 1] == UInt8(ascii: "\r") ? index - 1 : index
        return (start..<end, index + 1)
    }
}
