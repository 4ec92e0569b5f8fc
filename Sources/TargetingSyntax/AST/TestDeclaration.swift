import TargetingBase

/// The value of one `given { … }` assignment: a single literal or a list.
package enum GivenValue: Hashable, Sendable {
    /// A string, number, `true`/`false`, date or `now ± d` literal.
    case literal(Literal)
    /// A list of literals, `["a", "b"]`.
    case list(ListLiteral)

    /// Where the value is written.
    package var range: SourceRange {
        switch self {
        case .literal(let literal): literal.range
        case .list(let list): list.range
        }
    }
}

/// One line of a `given { … }` block: `ATTRIBUTE = VALUE`.
package struct GivenAssignment: Hashable, Sendable {
    /// The attribute set: a custom key or `profile.FIELD`.
    package var target: AttributeReference
    /// The value.
    package var value: GivenValue
    /// The whole line.
    package var range: SourceRange

    /// Creates an assignment.
    package init(target: AttributeReference, value: GivenValue, range: SourceRange) {
        self.target = target
        self.value = value
        self.range = range
    }
}

/// `shown PLACEMENT at TIME` in a `given { … }` block: the placement was shown at that instant.
package struct GivenShown: Hashable, Sendable {
    /// The placement (checked against the rules' placements).
    package var placement: Identifier
    /// The instant: a date, an RFC 3339 instant or `now ± d`.
    package var at: Literal
    /// The whole line.
    package var range: SourceRange
}

/// `assigned EXPERIMENT VARIANT at TIME` in a `given { … }` block: the experiment's first
/// assignment, as the profile's history records it.
package struct GivenAssigned: Hashable, Sendable {
    /// The experiment.
    package var experiment: Identifier
    /// The variant assigned.
    package var variant: Identifier
    /// The instant: a date, an RFC 3339 instant or `now ± d`.
    package var at: Literal
    /// The whole line.
    package var range: SourceRange
}

/// One line of a `given { … }` block.
package enum GivenLine: Hashable, Sendable {
    /// `ATTRIBUTE = VALUE`.
    case attribute(GivenAssignment)
    /// `shown PLACEMENT at TIME`.
    case shown(GivenShown)
    /// `assigned EXPERIMENT VARIANT at TIME`.
    case assigned(GivenAssigned)

    /// The assignment, for an `ATTRIBUTE = VALUE` line.
    package var attribute: GivenAssignment? {
        if case .attribute(let assignment) = self { return assignment }
        return nil
    }

    /// Where the line is written.
    package var range: SourceRange {
        switch self {
        case .attribute(let assignment): assignment.range
        case .shown(let shown): shown.range
        case .assigned(let assigned): assigned.range
        }
    }
}

/// A file named by `given events "…"` or `given profile "…"`.
package struct GivenPath: Hashable, Sendable {
    /// The path as written, relative to the `.tests` file unless absolute.
    package var path: String
    /// Where the string literal is.
    package var range: SourceRange

    /// Creates a path reference.
    package init(path: String, range: SourceRange) {
        self.path = path
        self.range = range
    }
}

/// One `given` line of a test; they apply in order, later ones overriding earlier ones.
package enum Given: Hashable, Sendable {
    /// `given { ATTRIBUTE = VALUE … }`, with `shown …` and `assigned …` lines among them.
    case assignments([GivenLine], SourceRange)
    /// `given events "FILE.jsonl"`: events through the input handler.
    case events(GivenPath, SourceRange)
    /// `given profile "FILE.json"`: a profile JSON file.
    case profile(GivenPath, SourceRange)

    /// Where the whole `given` is written.
    package var range: SourceRange {
        switch self {
        case .assignments(_, let range), .events(_, let range), .profile(_, let range): range
        }
    }
}

/// What `expect PLACEMENT -> …` asks of a placement.
package struct PlacementExpectation: Hashable, Sendable {
    /// What must be shown.
    package enum Outcome: Hashable, Sendable {
        /// `flow "ID"`, `paywall "ID"` or `nothing` (which a holdout, a `nothing` row or no
        /// match all satisfy).
        case destination(Destination)
        /// `no match`: no row decided.
        case noMatch(SourceRange)
    }

    /// `from EXPERIMENT.VARIANT`: the experiment variant that must decide.
    package struct Variant: Hashable, Sendable {
        /// The experiment.
        package var experiment: Identifier
        /// The variant.
        package var variant: Identifier
        /// Where `EXPERIMENT.VARIANT` is written.
        package var range: SourceRange

        package init(experiment: Identifier, variant: Identifier, range: SourceRange) {
            self.experiment = experiment
            self.variant = variant
            self.range = range
        }
    }

    package var outcome: Outcome
    /// `from AUDIENCE`: the audience whose row must decide (`everyone` for that row).
    package var audience: Identifier?
    /// `from EXPERIMENT.VARIANT`: the experiment variant whose draw must decide.
    package var variant: Variant?

    package init(outcome: Outcome, audience: Identifier? = nil, variant: Variant? = nil) {
        self.outcome = outcome
        self.audience = audience
        self.variant = variant
    }

    /// As written after `->`: `flow "x"`, `nothing from holdouts`, `no match`.
    package var description: String {
        let shown: String
        switch outcome {
        case .destination(let destination): shown = destination.description
        case .noMatch: shown = "no match"
        }
        return shown + (audience.map { " from " + $0.text } ?? "") + (variant.map { " from \($0.experiment.text).\($0.variant.text)" } ?? "")
    }
}

/// One `expect` line of a test.
package enum Expectation: Hashable, Sendable {
    /// `expect PLACEMENT -> flow "ID" | paywall "ID" | nothing | no match [from AUDIENCE]`.
    case placement(Identifier, PlacementExpectation, SourceRange)
    /// `expect NAME` or `expect not NAME`: audience or segment membership.
    case membership(Identifier, negated: Bool, SourceRange)
    /// `expect held out` or `expect not held out`: whether the rule set's holdout
    /// holds the profile out; the range is that of `held out`.
    case heldOut(negated: Bool, words: SourceRange, SourceRange)

    /// Where the whole line is written.
    package var range: SourceRange {
        switch self {
        case .placement(_, _, let range), .membership(_, _, let range), .heldOut(_, _, let range): range
        }
    }

    /// The placement, audience or segment named; for `held out`, the words `held out`.
    package var name: Identifier {
        switch self {
        case .placement(let name, _, _), .membership(let name, _, _): name
        case .heldOut(_, let words, _): Identifier(text: "held out", range: words)
        }
    }

    /// The expectation as written, e.g. `onboarding_followup -> flow "flow_pro_v2"` or `not casuals`.
    package var description: String {
        switch self {
        case .placement(let name, let expected, _):
            return "\(name.text) -> " + expected.description
        case .membership(let name, let negated, _):
            return (negated ? "not " : "") + name.text
        case .heldOut(let negated, _, _):
            return negated ? "not held out" : "held out"
        }
    }
}

/// `test "NAME" { now …; given …; expect … }`.
package struct TestDeclaration: Hashable, Sendable {
    /// The test's name.
    package var name: String
    /// Where the name string is.
    package var nameRange: SourceRange
    /// Every `now` line (one is expected; more are reported by the checker).
    package var nows: [Literal]
    /// The `given` lines in order.
    package var givens: [Given]
    /// The `expect` lines in order; they are checked against the profile built by all givens.
    package var expectations: [Expectation]
    /// The whole test, from `test` to `}`.
    package var range: SourceRange

    /// Creates a test.
    package init(name: String, nameRange: SourceRange, nows: [Literal], givens: [Given], expectations: [Expectation], range: SourceRange) {
        self.name = name
        self.nameRange = nameRange
        self.nows = nows
        self.givens = givens
        self.expectations = expectations
        self.range = range
    }

    /// The pinned evaluation time (Unix ms), when the test has a valid `now` line.
    package var now: Int64? {
        guard let first = nows.first, case .date(let ms?) = first.value else { return nil }
        return ms
    }
}

/// A parsed `.tests` file.
package struct TestFile: Hashable, Sendable {
    /// The source.
    package var source: SourceFile
    /// The tests in file order.
    package var tests: [TestDeclaration]
    /// The comments in file order.
    package var comments: [Comment]

    /// Creates a tests file.
    package init(source: SourceFile, tests: [TestDeclaration], comments: [Comment]) {
        self.source = source
        self.tests = tests
        self.comments = comments
    }
}
