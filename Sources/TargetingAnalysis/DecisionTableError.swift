import TargetingBase

/// Why a table cannot be built.
package enum DecisionTableError: Error, Hashable, Sendable {
    /// The attributes give `count` combinations, more than a table holds (`limit`).
    case tooManyCombinations(Int, limit: Int)
    /// The placement does not read the attribute named.
    case notRead(String)
    /// A `set of` attribute declares `count` values, too many to take every subset (`limit`).
    case tooManySetValues(String, count: Int, limit: Int)
    /// The attribute named has no finite domain: a type other than `bool`, `one of` strings and
    /// `set of`, a string or set without declared values, or (nil) no known type.
    case notFinite(String, type: ValueType?)
}
