import TargetingBase

/// An `expect` that did not hold.
package struct TestFailure: Hashable, Sendable {
    /// Where the `expect` is written.
    package var range: SourceRange
    /// The expectation as written, e.g. `onboarding_followup -> flow "flow_pro_v2"` or `not casuals`.
    package var expected: String
    /// What came out, e.g. `flow "flow_default"`, `nothing`, `not pro_adults` (a failed
    /// `expect pro_adults`) or `casuals` (a failed `expect not casuals`).
    package var actual: String
    /// The deciding audience of a placement (`everyone` for that row); nil when no row matched
    /// or for membership.
    package var audience: String?
    /// The split that chose the destination, if one did.
    package var split: String?
    /// Why a membership did not come out as expected, e.g. "segment `adults`: profile.age is 16,
    /// so `profile.age >= 18` is false".
    package var reason: String?
    /// The holdout that held the profile out of the placement, if one did.
    package var heldOutBy: String?
    /// The experiment variant that decided, as `pricing_q4: discount`.
    package var experimentVariant: String?

    /// Creates a failure.
    package init(range: SourceRange, expected: String, actual: String, audience: String?, split: String?, reason: String?, heldOutBy: String? = nil) {
        self.range = range
        self.expected = expected
        self.actual = actual
        self.audience = audience
        self.split = split
        self.reason = reason
        self.heldOutBy = heldOutBy
    }

    /// The one-line message: `expected X, got Y (audience `a`)`.
    package var message: String {
        var text = "expected \(expected), got \(actual)"
        if let audience {
            text += " (audience `\(audience)`" + (split.map { ", split `\($0)`" } ?? "") + ")"
        } else if expected.contains(" -> ") {
            text += " (no audience matched)"
        }
        if let experimentVariant { text += " (experiment \(experimentVariant))" }
        if let heldOutBy { text += " (held out by \(heldOutBy))" }
        return text
    }
}

/// A test that could not run to its expectations: an unreadable or invalid input file, a
/// profile that cannot be split, a rejected value.
package struct TestError: Error, Hashable, Sendable {
    /// A lowercase message.
    package var message: String
    /// The `given` or `expect` it happened at.
    package var range: SourceRange

    /// Creates an error.
    package init(message: String, range: SourceRange) {
        self.message = message
        self.range = range
    }
}

/// How a test ended.
package enum TestStatus: Hashable, Sendable {
    /// Every expectation held.
    case passed
    /// Some expectations did not hold, in the order written.
    case failed([TestFailure])
    /// The test could not run.
    case error(TestError)

    /// Whether the test passed.
    package var isPassed: Bool { self == .passed }
}

/// What a test exercised, for coverage.
package struct TestTrace: Hashable, Sendable {
    /// (placement index, row index) of every row that decided an `expect PLACEMENT -> …`.
    package var decidedRows: [PlacementRowKey]
    /// The value of every segment (by index) for the test's profile.
    package var segmentValues: [Bool]
    /// The value of every prerequisite (`Program.prerequisites`, by index) for the test's profile.
    package var prerequisiteValues: [Bool] = []
}

/// A row of a compiled placement.
package struct PlacementRowKey: Hashable, Sendable {
    /// The placement's index in the program.
    package var placement: Int
    /// The row's index in the placement.
    package var row: Int
    /// For a split row, the variant that was shown (its index in the split's draw order).
    package var variant: Int?
    /// Whether a sticky experiment's recorded assignment decided (not the audience and a draw).
    package var sticky: Bool

    /// Creates a key.
    package init(placement: Int, row: Int, variant: Int? = nil, sticky: Bool = false) {
        self.placement = placement
        self.row = row
        self.variant = variant
        self.sticky = sticky
    }
}

/// The result of running one test.
package struct TestResult: Hashable, Sendable {
    /// The test's name.
    package var name: String
    /// Where the test is written (its `test` keyword starts the range).
    package var range: SourceRange
    /// How it ended.
    package var status: TestStatus
    /// Events the input handler rejected or could not store while building the profile
    /// (shown with a failure, as they often explain it).
    package var notes: [String]
    /// What it exercised; nil when the test could not run.
    package var trace: TestTrace?
}
