/// Adapty's storage rules for custom attributes.
package enum AdaptyLimits {
    /// Longest key, in characters.
    package static let maxKeyLength = 30
    /// Longest string value, in characters.
    package static let maxValueLength = 50
    /// Most custom attributes on one profile.
    package static let maxAttributes = 30

    /// Whether `key` (already trimmed) is a valid custom attribute key: 1–30 characters from `A–Z a–z 0–9 . _ -`.
    package static func isValidKey(_ key: String) -> Bool {
        let scalars = key.unicodeScalars
        guard !scalars.isEmpty, scalars.count <= maxKeyLength else { return false }
        return scalars.allSatisfy { scalar in
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9", ".", "_", "-": true
            default: false
            }
        }
    }

    /// The scalars trimming removes: exactly those with the Unicode `White_Space` property,
    /// spelled out for SQL. U+001C–U+001F, U+200B and U+FEFF are not among them.
    package static let whiteSpace: [UInt32] = [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680]
        + Array(0x2000...0x200A) + [0x2028, 0x2029, 0x202F, 0x205F, 0x3000]

    /// Text trimmed of Unicode `White_Space` at both ends (the scalars of `whiteSpace`), as
    /// Adapty trims keys and values; an array value is trimmed once joined.
    package static func trimmed(_ text: String) -> String {
        // Fast path: text that starts and ends with visible ASCII has nothing to trim.
        if let first = text.utf8.first, let last = text.utf8.last,
           first > 0x20, first < 0x7F, last > 0x20, last < 0x7F { return text }
        let all = text.unicodeScalars
        guard let first = all.first, let last = all.last else { return text }
        if !first.properties.isWhitespace, !last.properties.isWhitespace { return text }
        let scalars = Array(text.unicodeScalars)
        var start = 0
        var end = scalars.count
        while start < end, scalars[start].properties.isWhitespace { start += 1 }
        while end > start, scalars[end - 1].properties.isWhitespace { end -= 1 }
        if start == 0, end == scalars.count { return text }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<end])
        return String(view)
    }

    /// The length counted against the 50-character limit: Unicode code points, as JSON
    /// Schema's `maxLength` and server-side validators count them (so `"é"` spelled with a
    /// combining accent counts two).
    package static func length(_ text: String) -> Int { text.unicodeScalars.count }
}
