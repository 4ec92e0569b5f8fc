import TargetingBase
import TargetingProfiles
import TargetingSyntax

/// A literal of the wrong type rewritten as the literal of its attribute's type that says the
/// same thing: `"5"` as `5` for a number, `2008-12-01` as `"2008-12-01"` for a string, `4.2` as
/// `"4.2"` for a version, `"true"` as `true` for a bool.
///
/// A rewrite is offered only when it is plain what was meant, and it is proved before it is
/// offered: the replacement must read back, through the parser, as one literal that fits the
/// type (a valid date, a listed value of a `one of`), so applying it clears the error. The
/// one exception is a bool written in words: `"yes"`, `"on"`, `"y"` and `"1"` are taken as
/// `true` and their opposites as `false`, but only as a likely reading (`isCertain` is false),
/// which the help line says and the language server does not prefer.
package struct LiteralFix: Hashable, Sendable {
    /// The literal to replace.
    package var literal: Literal
    /// The literal to write instead.
    package var replacement: String
    /// Whether the replacement surely means what the literal meant.
    package var isCertain: Bool

    /// Words taken, as a guess, for a bool written in a string.
    static let guessedBools: [String: Bool] = ["yes": true, "y": true, "on": true, "1": true,
                                               "no": false, "n": false, "off": false, "0": false]

    /// The rewrite of `literal` as a literal of `type` (with `allowed`, the listed values of a
    /// `one of` or `set of`), or nil when there is none that surely fits.
    package init?(_ literal: Literal, as type: ValueType, allowed: [String]? = nil) {
        var certain = true
        let candidate: String?
        switch literal.value {
        case .string(let text):
            let trimmed = AdaptyLimits.trimmed(text)
            switch type {
            case .number, .date:
                candidate = trimmed
            case .bool:
                let word = CaseFolding.lowercase(trimmed)
                if word == "true" || word == "false" {
                    candidate = word
                } else if let meaning = LiteralFix.guessedBools[word] {
                    candidate = meaning ? "true" : "false"
                    certain = false
                } else {
                    candidate = nil
                }
            case .string, .set, .version:
                candidate = nil
            }
        case .number(let value):
            switch type {
            case .bool:
                // A bool is stored as the number 1 or 0, so these two say exactly `true` and `false`.
                candidate = value == 1 ? "true" : value == 0 ? "false" : nil
            case .string, .set, .version:
                candidate = "\"" + literal.text + "\""
            case .number, .date:
                candidate = nil
            }
        case .bool, .date:
            switch type {
            case .string, .set:
                candidate = "\"" + literal.text + "\""
            case .number, .bool, .date, .version:
                candidate = nil
            }
        case .now, .pattern:
            candidate = nil
        }
        guard let candidate, candidate != literal.text,
              LiteralFix.reads(candidate, as: type, allowed: allowed) else { return nil }
        self.literal = literal
        self.replacement = candidate
        self.isCertain = certain
    }

    /// Whether `text` parses as one literal of `type`, a valid date for a date and a listed
    /// value when `allowed` lists them.
    static func reads(_ text: String, as type: ValueType, allowed: [String]?) -> Bool {
        guard let parsed = Parser.literal(parsing: text), TypedTest.fits(parsed, type) else { return false }
        switch parsed.value {
        case .string(let value):
            if type == .set, value.contains(",") { return false }
            return allowed.map { $0.contains(value) } ?? true
        case .date(let ms):
            return ms != nil
        case .number, .bool:
            return true
        case .now, .pattern:
            return false
        }
    }

    /// The edit, for the language server and for tools reading diagnostics.
    package var fix: Fix { Fix(range: literal.range, replacement: replacement, isCertain: isCertain) }

    /// The help line that describes the rewrite.
    package var help: String {
        if !isCertain { return "if `\(literal.text)` means \(replacement), write `\(replacement)`" }
        let wasQuoted = literal.text.hasPrefix("\""), isQuoted = replacement.hasPrefix("\"")
        if wasQuoted, !isQuoted { return "write `\(replacement)` without quotes" }
        if !wasQuoted, isQuoted { return "write `\(replacement)` in quotes" }
        return "write `\(replacement)`"
    }
}
