import TargetingProfiles
import TargetingBase
import TargetingSyntax

/// Syntax errors, errors and warnings of `.tests` files.
extension Diagnostic {
    package static func testsFileTooLarge(limit: Int, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .fileTooLarge, "tests file is larger than \(limit / (1024 * 1024)) MiB", at: range)
    }

    static func duplicateTestName(_ name: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .duplicateTest, "test `\(name)` is already declared", at: range, help: "first declared at \(place(first))")
    }

    static func duplicateNow(first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .duplicateNow, "`now` is already set in this test", at: range, help: "first set at \(place(first))")
    }

    static func clockDependentTest(_ name: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, .unpinnedNow, "test depends on the clock without pinning `now`", at: range,
                   help: "the rules use `now`, `profile.age` or `profile.days_since_install`: add a line such as `now 2026-11-29T12:00:00Z` to test `\(name)`")
    }

    static func testWithoutExpectations(_ name: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, .noExpect, "test `\(name)` has no `expect`", at: range)
    }

    static func unknownPlacement(_ name: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .unknownPlacement, "unknown placement `\(name)`", at: range, help: didYouMean(suggestion))
    }

    static func noHoldout(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .noHoldout, "the rules declare no holdout", at: range, help: "declare one with `holdout NAME 5%`")
    }

    static func experimentNotInPlacement(_ experiment: String, placement: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .experimentNotInPlacement, "no row of placement `\(placement)` uses experiment `\(experiment)`", at: range)
    }

    static func notAPlacement(_ name: String, is kind: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .wrongKind, "`\(name)` is \(kind == "audience" ? "an" : "a") \(kind), not a placement", at: range,
                   help: "expect membership without `->`: `expect \(name)`")
    }

    static func unknownMember(_ name: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .unknownName, "unknown audience or segment `\(name)`", at: range, help: didYouMean(suggestion))
    }

    static func placementMembership(_ name: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .wrongKind, "`\(name)` is a placement, not an audience or segment", at: range,
                   help: "expect what it shows: `expect \(name) -> …`")
    }

    static func destinationKindMismatch(placement: String, shows: String, expected: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .mixedDestinations, "placement `\(placement)` shows \(shows)s, not \(expected)s", at: range)
    }

    static func unknownDestination(kind: String, id: String, placement: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .unknownDestination, "placement `\(placement)` never shows \(kind) `\(id)`", at: range, help: didYouMean(suggestion))
    }

    static func derivedField(_ name: String, from source: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .derivedField, "`\(name)` is derived and cannot be set", at: range, help: "set `\(source)` instead")
    }

    static func audienceNotInPlacement(_ audience: String, placement: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .unknownRow, "placement `\(placement)` has no row for audience `\(audience)`", at: range,
                   help: suggestion.map { "did you mean `\($0)`?" })
    }

    static func givenAttributeUnused(_ key: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, .unusedGiven, "attribute `\(key)` is neither declared nor read by any rule, so setting it changes nothing", at: range,
                   help: suggestion.map { "did you mean `\($0)`?" })
    }

    static func givenTypeMismatch(name: String, type: ValueType, found: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .typeMismatch, "`\(name)` is a `\(type.rawValue)`, but the value is \(found)", at: range,
                   help: type == .set ? "write a list such as `[\"a\", \"b\"]`" : nil)
    }

    static func givenValueTooLong(name: String, length: Int, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .valueTooLong, "the value of `\(name)` is \(length) characters long; at most \(AdaptyLimits.maxValueLength) can be stored", at: range)
    }

    static func givenValueNotListed(_ value: String, name: String, allowed: [String], at range: SourceRange) -> Diagnostic {
        let help = didYouMean(Suggestion.nearest(to: value, in: allowed)) ?? "allowed: " + allowed.map { "`\($0)`" }.joined(separator: ", ")
        return Diagnostic(.warning, .valueNotAllowed, "`\(value)` is not one of the values of `\(name)`", at: range, help: help)
    }

    static func missingTestInput(_ path: String, resolved: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .missingFile, "cannot read `\(path)`", at: range,
                   help: "paths are relative to the tests file; looked for `\(resolved)`")
    }

    /// Lines of a `given events` file that are not events: a test skips them unless they name its
    /// own profile, as `ingest` rejects them and goes on.
    package static func skippedEventLines(_ path: String, lines: [EventFile.BrokenLine], at range: SourceRange) -> Diagnostic {
        let count = lines.count == 1 ? "1 line" : "\(lines.count) lines"
        return Diagnostic(.note, .skippedLines, "`\(path)`: skipped \(count) that do not parse as events: " + EventFile.describe(lines), at: range,
                          help: "a line that names the tested profile in `profile_id` fails that test instead; other profiles' lines and lines without a usable `profile_id` are skipped")
    }
}
