/// How serious a diagnostic is.
public enum Severity: String, Hashable, Sendable, Comparable {
    /// Something that stops the rules (or an input) from being used; `check` exits 1.
    case error
    /// Something worth a look that does not stop anything.
    case warning
    /// Extra information.
    case note

    var rank: Int {
        switch self {
        case .error: 0
        case .warning: 1
        case .note: 2
        }
    }

    /// Errors sort before warnings, warnings before notes.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One finding about an input, with the place it points at.
///
/// Messages are lowercase, without a final period, user text in backticks; extra detail goes
/// to `help`. Each kind of finding has one factory (see the `Diagnostic+*.swift` files) with a
/// stable `code`.
public struct Diagnostic: Hashable, Sendable {
    /// Error, warning or note.
    public package(set) var severity: Severity
    /// The kind of finding.
    package var kind: DiagnosticCode
    /// A stable identifier of the kind of finding, e.g. `unknown-segment`.
    public var code: String { kind.rawValue }
    /// The one-line message.
    public package(set) var message: String
    /// Where the finding points (the first character of the offending token).
    package var range: SourceRange
    /// An optional extra line, e.g. "did you mean `pros`?".
    public package(set) var help: String?
    /// How much of `range` is known, which decides the header's `path:line:col` part.
    package var place: Place
    /// An edit that resolves the finding, when one is known; `help` describes it.
    package var fix: Fix?

    /// How much of a diagnostic's place is known.
    package enum Place: Hashable, Sendable {
        /// A span of a source file: `path:line:col`, with the line quoted.
        case span
        /// A line of a file, such as a JSON Lines record: `path:line`.
        case line
        /// A whole file: `path`.
        case file
        /// No file, or one the message names: a command-line problem.
        case none
    }

    /// Creates a diagnostic.
    package init(_ severity: Severity, _ kind: DiagnosticCode, _ message: String, at range: SourceRange, help: String? = nil,
                 place: Place = .span, fix: Fix? = nil) {
        self.severity = severity
        self.kind = kind
        self.message = message
        self.range = range
        self.help = help
        self.place = place
        self.fix = fix
    }

    /// Whether this is an error.
    public var isError: Bool { severity == .error }

    /// The path of the file it points into, as given when loading.
    public var file: String { range.file }
    /// The 1-based line it points at.
    public var line: Int { range.start.line }
    /// The 1-based column it points at, counted in Unicode scalars.
    public var column: Int { range.start.column }
}

extension Diagnostic {
    /// Orders diagnostics by file, then position, then severity.
    package static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            let x = a.element, y = b.element
            if x.range.file != y.range.file { return x.range.file.utf8.lexicographicallyPrecedes(y.range.file.utf8) }
            if x.range.start.offset != y.range.start.offset { return x.range.start.offset < y.range.start.offset }
            if x.severity != y.severity { return x.severity < y.severity }
            return a.offset < b.offset
        }.map(\.element)
    }
}

/// Diagnostics gathered by one phase, in the order found.
package struct DiagnosticBag: Sendable {
    /// The findings so far.
    package private(set) var items: [Diagnostic] = []

    /// Creates an empty bag.
    package init() {}

    /// Adds a finding.
    package mutating func add(_ diagnostic: Diagnostic) { items.append(diagnostic) }

    /// Adds several findings.
    package mutating func add(contentsOf diagnostics: [Diagnostic]) { items.append(contentsOf: diagnostics) }

    /// Whether any finding is an error.
    package var hasErrors: Bool { items.contains { $0.isError } }
}

/// A diagnostic can stand for a failure where one value is expected (`Result<_, Diagnostic>`).
extension Diagnostic: Error {}
