/// A name of a segment, audience, placement or split, with its place.
public struct Identifier: Hashable, Sendable {
    /// The name.
    public var text: String
    /// Where it is written.
    public var range: SourceRange

    /// Creates an identifier.
    public init(text: String, range: SourceRange) {
        self.text = text
        self.range = range
    }
}
