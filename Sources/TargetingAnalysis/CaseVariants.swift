import TargetingBase

/// Spellings of a lowercased text that differ only in case, for finding a string that matches
/// `== "…" ignoring case` but none of the exact literals.
enum CaseVariants {
    /// The text itself, all upper case, the first letter upper case, then each of the first
    /// letters upper case alone; distinct by UTF-8 bytes, each lowercasing back to `text`.
    static func of(_ text: String) -> [String] {
        let characters = Array(text)
        var result: [String] = [text, text.uppercased()]
        for index in characters.indices.prefix(8) {
            result.append(String(characters[..<index]) + String(characters[index]).uppercased()
                          + String(characters[(index + 1)...]))
        }
        var seen: Set<[UInt8]> = []
        let target = Array(text.utf8)
        return result.filter { Array(CaseFolding.lowercase($0).utf8) == target && seen.insert(Array($0.utf8)).inserted }
    }
}
