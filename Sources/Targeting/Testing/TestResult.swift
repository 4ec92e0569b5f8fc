/// An `expect` that did not hold.
public struct TestFailure: Hashable, Sendable {
    /// Where the `expect` is written.
    public var range: SourceRange
    /// The expectation as written, e.g. `onboarding_followup -> flow "flow_pro_v2"` or `not casuals`.
    public var expected: String
    /// What came out, e.g. `flow "flow_default"`, `nothing`, `not pro_adults` (a failed
    /// `expect pro_adults`) or `casuals` (a failed `expect not casuals`).
    public var actual: String
    /// The deciding audience of a placement (`everyone` for that row); nil when no row matched
    /// or for membership.
    public var audience: String?
    /// The split that chose the destination, if one did.
    public var split: String?
    /// Why a membership did not come out as expected, e.g. "segment `adults`: profile.age is 16,
    /// so `profile.age >= 18` is false".
    public var reason: String?

    /// Creates a failure.
    public init(range: SourceRange, expected: String, actual: String, audience: String?, split: String?, reason: String?) {
        self.range = range
        self.expected = expected
        self.actual = actual
        self.audience = audience
        self.split = split
        self.reason = reason
    }

    /// The one-line message: `expected X, got Y (audience `a`)`.
    public var message: String {
        var text = "expected \(expected), got \(actual)"
        if let audience {
            text += " (audience `\(audience)`" + (split.map { ", split `\($0)`" } ?? "") + ")"
        } else if expected.contains(" -> ") {
            text += " (no audience matched)"
        }
        return text
    }
}

/// A test that could not run to its expectations: an unreadable or invalid input file, a
/// profile that cannot be split, a rejected value.
public struct TestError: Error, Hashable, Sendable {
    /// A lowercase message.
    public var message: String
    /// The `given` or `expect` it happened at.
    public var range: SourceRange

    /// Creates an error.
    public init(message: String, range: SourceRange) {
        self.message = message
        self.range = range
    }
}

/// How a test ended.
public enum TestStatus: Hashable, Sendable {
    /// Every expectation held.
    case passed
    /// Some expectations did not hold, in the order written.
    case failed([TestFailure])
    /// The test could not run.
    case error(TestError)

    /// Whether the test passed.
    public var isPassed: Bool { self == .passed }
}

/// What a test exercised, for coverage.
public struct TestTrace: Hashable, Sendable {
    /// (placement index, row index) of every row that decided an `expect PLACEMENT -> …`.
    public var decidedRows: [PlacementRowKey]
    /// The value of every segment (by index) for the test's profile.
    public var segmentValues: [Bool]
}

/// A row of a compiled placement.
public struct PlacementRowKey: Hashable, Sendable {
    /// The placement's index in the program.
    public var placement: Int
    /// The row's index in the placement.
    public var row: Int

    /// Creates a key.
    public init(placement: Int, row: Int) {
        self.placement = placement
        self.row = row
    }
}

/// The result of running one test.
public struct TestResult: Hashable, Sendable {
    /// The test's name.
    public var name: String
    /// Where the test is written (its `test` keyword starts the range).
    public var range: SourceRange
    /// How it ended.
    public var status: TestStatus
    /// Events the input handler rejected or could not store while building the profile
    /// (shown with a failure, as they often explain it).
    public var notes: [String]
    /// What it exercised; nil when the test could not run.
    public var trace: TestTrace?
}
