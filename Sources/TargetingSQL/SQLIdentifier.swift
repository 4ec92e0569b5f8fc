/// A table or column name a query reads from, checked when it is made: one or more parts of
/// ASCII letters, digits and `_`, none starting with a digit, joined by `.` (a column is one
/// part). Nothing that could end an identifier, start a comment or separate statements can be
/// held, so the name is written into a query as it is.
package struct SQLIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The name as written into the query.
    package let text: String

    /// What a name is for: a table may be qualified (`lake.app.profiles`), a column may not.
    package enum Role: Sendable {
        case table, column
    }

    /// The error for a name that is not a plain identifier: the name, and what it was to name.
    package struct Invalid: Error {
        package let name: String
        package let role: Role
    }

    /// The default source: a table `profiles`, and its column `profile`.
    package static let profiles = SQLIdentifier(checked: "profiles")
    package static let profile = SQLIdentifier(checked: "profile")

    /// `name` as a `role` identifier; throws `Invalid` when it is anything else.
    package init(_ name: String, role: Role) throws {
        let parts = role == .table ? name.split(separator: ".", omittingEmptySubsequences: false).map(Substring.init) : [Substring(name)]
        guard parts.allSatisfy(SQLIdentifier.isPlainPart) else { throw Invalid(name: name, role: role) }
        text = name
    }

    private init(checked name: String) { text = name }

    package var description: String { text }

    /// One part: not empty, ASCII letters, digits and `_`, not starting with a digit.
    static func isPlainPart(_ part: Substring) -> Bool {
        guard let first = part.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return part.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// `text` with each character other than an ASCII letter, digit or `_` made `_`: the part
    /// of a column name that comes from a rule's name or a custom attribute's key.
    static func wordCharacters(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_": scalar
            default: "_"
            }
        }))
    }
}
