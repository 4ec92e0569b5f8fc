import TargetingBase

/// A test of a set of strings (`has`, `has any`, `has all`, `has none`). Literals are stored
/// lowercased when the test ignores case (`Kind.members`' `fold`).
package enum MembersTest: Hashable, Sendable {
    case has(String)
    case hasAny(ExactStringSet)
    case hasAll(ExactStringSet)
    case hasNone(ExactStringSet)

    /// Whether a set with these members passes, each lowercased first under `fold`.
    @inline(__always)
    package func holds(_ members: [String], fold: Bool) -> Bool {
        func folded(_ member: String) -> String { fold ? CaseFolding.lowercase(member) : member }
        switch self {
        case .has(let literal):
            return members.contains { ByteText.equals(folded($0), literal) }
        case .hasAny(let literals):
            return members.contains { literals.containsExactly(folded($0)) }
        case .hasAll(let literals):
            let all = members.map(folded)
            return literals.allSatisfy { literal in all.contains { ByteText.equals($0, literal) } }
        case .hasNone(let literals):
            return !members.contains { literals.containsExactly(folded($0)) }
        }
    }

    /// The members looked for.
    package var literals: [String] {
        switch self {
        case .has(let literal): [literal]
        case .hasAny(let literals), .hasAll(let literals), .hasNone(let literals): literals.items
        }
    }
}
