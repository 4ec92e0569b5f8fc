/// An edit that resolves a diagnostic: the text at `range` replaced by `replacement`.
///
/// The checker attaches one where it knows what was meant (a literal of the wrong type that
/// can be written in the right one); `check` shows it in the help line and the language server
/// offers it as a quick fix, both from this one value.
package struct Fix: Hashable, Sendable {
    /// The source text to replace.
    package var range: SourceRange
    /// The text to write in its place.
    package var replacement: String
    /// Whether the edit surely says what was meant; false for a likely reading only, such as
    /// `"yes"` taken as `true`.
    package var isCertain: Bool

    /// Creates a fix that writes `replacement` over `range`.
    package init(range: SourceRange, replacement: String, isCertain: Bool) {
        self.range = range
        self.replacement = replacement
        self.isCertain = isCertain
    }
}
