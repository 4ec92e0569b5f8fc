/// The value of one `given { … }` assignment: a single literal or a list.
public enum GivenValue: Hashable, Sendable {
    /// A string, number, `true`/`false`, date or `now ± d` literal.
    case literal(Literal)
    /// A list of literals, `["a", "b"]`.
    case list(ListLiteral)

    /// Where the value is written.
    public var range: SourceRange {
        switch self {
        case .literal(let literal): literal.range
        case .list(let list): list.range
        }
    }
}

/// One line of a `given { … }` block: `ATTRIBUTE = VALUE`.
public struct GivenAssignment: Hashable, Sendable {
    /// The attribute set: a custom key or `profile.FIELD`.
    public var target: AttributeReference
    /// The value.
    public var value: GivenValue
    /// The whole line.
    public var range: SourceRange

    /// Creates an assignment.
    public init(target: AttributeReference, value: GivenValue, range: SourceRange) {
        self.target = target
        self.value = value
        self.range = range
    }
}

/// A file named by `given events "…"` or `given profile "…"`.
public struct GivenPath: Hashable, Sendable {
    /// The path as written, relative to the `.tests` file unless absolute.
    public var path: String
    /// Where the string literal is.
    public var range: SourceRange

    /// Creates a path reference.
    public init(path: String, range: SourceRange) {
        self.path = path
        self.range = range
    }
}

/// One `given` line of a test; they apply in order, later ones overriding earlier ones.
public enum Given: Hashable, Sendable {
    /// `given { ATTRIBUTE = VALUE … }`.
    case assignments([GivenAssignment], SourceRange)
    /// `given events "FILE.jsonl"`: events through the input handler.
    case events(GivenPath, SourceRange)
    /// `given profile "FILE.json"`: a profile JSON file.
    case profile(GivenPath, SourceRange)

    /// Where the whole `given` is written.
    public var range: SourceRange {
        switch self {
        case .assignments(_, let range), .events(_, let range), .profile(_, let range): range
        }
    }
}

/// One `expect` line of a test.
public enum Expectation: Hashable, Sendable {
    /// `expect PLACEMENT -> flow "ID" | paywall "ID" | nothing`.
    case placement(Identifier, Destination, SourceRange)
    /// `expect NAME` or `expect not NAME`: audience or segment membership.
    case membership(Identifier, negated: Bool, SourceRange)

    /// Where the whole line is written.
    public var range: SourceRange {
        switch self {
        case .placement(_, _, let range), .membership(_, _, let range): range
        }
    }

    /// The placement, audience or segment named.
    public var name: Identifier {
        switch self {
        case .placement(let name, _, _), .membership(let name, _, _): name
        }
    }

    /// The expectation as written, e.g. `onboarding_followup -> flow "flow_pro_v2"` or `not casuals`.
    public var description: String {
        switch self {
        case .placement(let name, let destination, _):
            return "\(name.text) -> " + destination.description
        case .membership(let name, let negated, _):
            return (negated ? "not " : "") + name.text
        }
    }
}

/// `test "NAME" { now …; given …; expect … }`.
public struct TestDeclaration: Hashable, Sendable {
    /// The test's name.
    public var name: String
    /// Where the name string is.
    public var nameRange: SourceRange
    /// Every `now` line (one is expected; more are reported by the checker).
    public var nows: [Literal]
    /// The `given` lines in order.
    public var givens: [Given]
    /// The `expect` lines in order; they are checked against the profile built by all givens.
    public var expectations: [Expectation]
    /// The whole test, from `test` to `}`.
    public var range: SourceRange

    /// Creates a test.
    public init(name: String, nameRange: SourceRange, nows: [Literal], givens: [Given], expectations: [Expectation], range: SourceRange) {
        self.name = name
        self.nameRange = nameRange
        self.nows = nows
        self.givens = givens
        self.expectations = expectations
        self.range = range
    }

    /// The pinned evaluation time (Unix ms), when the test has a valid `now` line.
    public var now: Int64? {
        guard let first = nows.first, case .date(let ms?) = first.value else { return nil }
        return ms
    }
}

/// A parsed `.tests` file.
public struct TestFile: Hashable, Sendable {
    /// The source.
    public var source: SourceFile
    /// The tests in file order.
    public var tests: [TestDeclaration]
    /// The comments in file order.
    public var comments: [Comment]

    /// Creates a tests file.
    public init(source: SourceFile, tests: [TestDeclaration], comments: [Comment]) {
        self.source = source
        self.tests = tests
        self.comments = comments
    }
}
