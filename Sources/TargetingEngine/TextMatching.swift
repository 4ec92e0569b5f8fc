/// Exact text operations on UTF-8 bytes (Swift's `==` on `String` would also equate canonically
/// equivalent spellings, which stored data and SQL engines do not).
enum TextMatching {
    @inline(__always)
    static func equals(_ a: String, _ b: String) -> Bool {
        // Equal bytes make equal strings, so `!=` settles most cases at the speed of `==`
        // (a few machine words for short strings); only a match is confirmed byte by byte.
        guard a == b else { return false }
        return a.utf8.elementsEqual(b.utf8)
    }

    static func startsWith(_ text: String, _ prefix: String) -> Bool { text.utf8.starts(with: prefix.utf8) }

    static func endsWith(_ text: String, _ suffix: String) -> Bool {
        let t = text.utf8, s = suffix.utf8
        guard s.count <= t.count else { return false }
        return t.suffix(s.count).elementsEqual(s)
    }

    static func contains(_ text: String, _ part: String) -> Bool {
        let t = Array(text.utf8), p = Array(part.utf8)
        if p.isEmpty { return true }
        guard p.count <= t.count else { return false }
        var start = 0
        while start + p.count <= t.count {
            if t[start] == p[0], t[start..<(start + p.count)].elementsEqual(p) { return true }
            start += 1
        }
        return false
    }
}
