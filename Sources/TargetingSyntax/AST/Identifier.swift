import TargetingBase

/// A name of a segment, audience, placement or split, with its place.
package struct Identifier: Hashable, Sendable {
    /// The name.
    package var text: String
    /// Where it is written.
    package var range: SourceRange

    /// Creates an identifier.
    package init(text: String, range: SourceRange) {
        self.text = text
        self.range = range
    }
}
