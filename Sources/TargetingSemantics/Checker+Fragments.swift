import TargetingBase
import TargetingSyntax

extension Checker {
    /// Warns when no listed value of a `one of` attribute satisfies the fragment of a
    /// `contains`, `starts with` or `ends with` comparison (SPEC §9): a fragment is not a value,
    /// so it is not held to the list, but a comparison no value can make true is a mistake.
    ///
    /// Text is compared by its UTF-8 bytes, as evaluation does; with `ignoring case` both sides
    /// are lowercased first, as evaluation lowercases them (final sigma included).
    mutating func checkFragment(_ comparison: Comparison, name: String, allowed: [String]) {
        guard !allowed.isEmpty, [.contains, .startsWith, .endsWith].contains(comparison.op),
              let literal = comparison.literals.first, case .string(let fragment) = literal.value else { return }
        let fold = comparison.ignoringCase
        let part = Array((fold ? CaseFolding.lowercase(fragment) : fragment).utf8)
        let satisfied = allowed.contains { value in
            let text = Array((fold ? CaseFolding.lowercase(value) : value).utf8)
            switch comparison.op {
            case .startsWith: return text.starts(with: part)
            case .endsWith: return text.count >= part.count && text.suffix(part.count).elementsEqual(part)
            default:
                guard part.count <= text.count else { return false }
                return part.isEmpty || (0...(text.count - part.count)).contains { text[$0..<($0 + part.count)].elementsEqual(part) }
            }
        }
        if !satisfied {
            report(.fragmentNeverMatches(fragment, op: comparison.op, name: name, allowed: allowed, at: literal.range))
        }
    }
}
