/// Why the text between the slashes of `matches /…/` is not a pattern, and where.
package struct PatternSyntaxError: Error, Hashable, Sendable {
    /// The byte offset of the offending character, counted from the first byte after the
    /// opening slash.
    package var byteOffset: Int
    /// How many bytes the offending text spans (at least one, except at the end).
    package var byteLength: Int
    /// How many Unicode scalars of the pattern come before the offending character.
    package var scalarOffset: Int
    /// How many Unicode scalars the offending text spans.
    package var scalarLength: Int
    /// The one-line message, lowercase, user text in backticks.
    package var message: String
    /// What to write instead, when something helps.
    package var help: String?
}
