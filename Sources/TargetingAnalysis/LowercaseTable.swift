import TargetingBase

/// The scalars that lowercasing changes, each with what it becomes on its own (one scalar or
/// more: `İ` becomes `i` and a combining dot).
///
/// Only U+03A3 (capital sigma) lowercases differently by context; its entry is the small sigma
/// it becomes away from the end of a word, and callers that could tell that apart from the
/// final form must say so themselves.
enum LowercaseTable {
    /// The highest scalar scanned: Unicode assigns no cased letter above the Supplementary
    /// Multilingual Plane (planes 2 and up hold ideographs, tags and private use).
    static let scanLimit: UInt32 = 0x1FFFF

    /// Every scalar up to `scanLimit` that changes when lowercased, ascending, with its lowercase.
    static let changing: [(scalar: UInt32, lower: [UInt32])] = {
        var found: [(scalar: UInt32, lower: [UInt32])] = []
        for value in UInt32(0)...scanLimit {
            guard let scalar = Unicode.Scalar(value), scalar.properties.changesWhenLowercased else { continue }
            let lower = CaseFolding.lowercase(String(scalar)).unicodeScalars.map(\.value)
            if lower != [value] { found.append((value, lower)) }
        }
        return found
    }()
}
