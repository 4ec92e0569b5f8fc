/// Reads the pattern language of `matches` (the README's "Patterns" section) into a
/// `PatternNode`, or reports the first character that is not part of it.
///
/// The language is small on purpose, so every engine (the tool's automaton, PostgreSQL's `~`,
/// Java's regular expressions under Spark) gives it the same meaning: literal scalars,
/// `\`-escapes of the special characters, `\u{…}`, `\d` (exactly `[0-9]`), `\w` (exactly
/// `[A-Za-z0-9_]`), `.` (any scalar, line breaks included), classes with ASCII ranges, groups
/// that capture nothing, alternation, and greedy counts up to 100. A leading `^` and a trailing
/// `$` are allowed and change nothing: a pattern always matches the whole value.
///
/// With `ignoringCase`, every literal and class member is lowercased as `CaseFolding` lowercases
/// values (a capital sigma, whose lowercase depends on its neighbours, stands for both `σ` and
/// `ς`), and a range must not hold both upper- and lowercase letters.
package struct PatternParser {
    /// The most characters between the slashes.
    package static let maxLength = 1_000
    /// The largest count of `{n}`, `{n,}` and `{n,m}`.
    package static let maxCount = 100
    /// The most scalar positions a pattern may have once its counts are written out, so that
    /// every engine builds it in bounded time and memory.
    package static let maxExpandedSize = 20_000

    // A count that may repeat its operand more than once (`*`, `+`, `{n,m}` with m > 1) must
    // not apply to a group that repeats without bound, so backtracking engines in a warehouse
    // cannot take exponential time; `?` and `{0,1}` may (`(_v[0-9]+)?`), as they never repeat.

    /// The characters that mean something in a pattern and are written `\c` to mean themselves.
    static let special: Set<Unicode.Scalar> = ["\\", "/", ".", "[", "]", "(", ")", "{", "}", "*", "+", "?", "|", "^", "$"]

    private let scalars: [Unicode.Scalar]
    private let byteOffsets: [Int]
    private let ignoringCase: Bool
    private var index = 0

    /// Parses `source`, the text between the slashes as written.
    package static func parse(_ source: String, ignoringCase: Bool) -> Result<PatternNode, PatternSyntaxError> {
        var parser = PatternParser(source, ignoringCase: ignoringCase)
        do {
            return .success(try parser.parseWhole())
        } catch let error as PatternSyntaxError {
            return .failure(error)
        } catch {
            return .failure(parser.error("unreadable pattern", at: 0))
        }
    }

    private init(_ source: String, ignoringCase: Bool) {
        var scalars: [Unicode.Scalar] = []
        var offsets: [Int] = []
        var offset = 0
        for scalar in source.unicodeScalars {
            scalars.append(scalar)
            offsets.append(offset)
            offset += UTF8.width(scalar)
        }
        offsets.append(offset)
        self.scalars = scalars
        self.byteOffsets = offsets
        self.ignoringCase = ignoringCase
    }

    // MARK: Errors

    func error(_ message: String, at position: Int, length: Int = 1, help: String? = nil) -> PatternSyntaxError {
        let start = min(position, scalars.count)
        let end = min(start + length, scalars.count)
        return PatternSyntaxError(byteOffset: byteOffsets[start], byteLength: byteOffsets[end] - byteOffsets[start],
                                  scalarOffset: start, scalarLength: end - start, message: message, help: help)
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func peek(_ ahead: Int) -> Unicode.Scalar? {
        index + ahead < scalars.count ? scalars[index + ahead] : nil
    }

    // MARK: Structure

    private mutating func parseWhole() throws -> PatternNode {
        guard !scalars.isEmpty else {
            throw error("empty pattern", at: 0, length: 0, help: "write `.*` to match any value, or `is set`")
        }
        guard scalars.count <= PatternParser.maxLength else {
            throw error("pattern is \(scalars.count) characters long; at most \(PatternParser.maxLength) are allowed", at: PatternParser.maxLength)
        }
        var end = scalars.count
        if scalars[0] == "^" { index = 1 }
        if end > index, scalars[end - 1] == "$", !isEscaped(end - 1) { end -= 1 }
        let node = try parseAlternation(until: end)
        if index < end {
            // Only a stray `)` stops an alternation early.
            throw error("unmatched `)`", at: index, help: "write `\\)` for the character")
        }
        if node.expandedSize(limit: PatternParser.maxExpandedSize) > PatternParser.maxExpandedSize {
            throw error("pattern too large: its counts write out to more than \(PatternParser.maxExpandedSize) characters",
                        at: 0, length: scalars.count, help: "use smaller counts, or `*` and `+`")
        }
        return node
    }

    /// Whether the scalar at `position` is preceded by an odd number of backslashes.
    private func isEscaped(_ position: Int) -> Bool {
        var count = 0
        var at = position - 1
        while at >= 0, scalars[at] == "\\" {
            count += 1
            at -= 1
        }
        return count % 2 == 1
    }

    private mutating func parseAlternation(until end: Int) throws -> PatternNode {
        var branches = [try parseSequence(until: end)]
        while index < end, scalars[index] == "|" {
            index += 1
            branches.append(try parseSequence(until: end))
        }
        if branches.count == 1 { return branches[0] }
        // Alternatives of single characters are one class (`a|b` is `[ab]`): the same language,
        // one automaton state, and no group for a backtracking engine to recurse into.
        var union = ScalarSet()
        for branch in branches {
            guard case .set(let set) = branch else { return .alternation(branches) }
            union.formUnion(set)
        }
        return .set(union)
    }

    private mutating func parseSequence(until end: Int) throws -> PatternNode {
        var items: [PatternNode] = []
        while index < end {
            let scalar = scalars[index]
            if scalar == "|" || scalar == ")" { break }
            let atomStart = index
            var atom = try parseAtom(until: end)
            atom = try parseQuantifiers(on: atom, atomStart: atomStart, until: end)
            items.append(atom)
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .sequence(items)
        }
    }

    private mutating func parseAtom(until end: Int) throws -> PatternNode {
        let start = index
        let scalar = scalars[index]
        switch scalar {
        case "(":
            if index + 1 < end, scalars[index + 1] == "?" {
                let flagged = index + 2 < end && (scalars[index + 2] == "i" || scalars[index + 2] == "s" || scalars[index + 2] == "m")
                throw error("groups take no options: `(?` is not part of a pattern", at: index, length: 2,
                            help: flagged ? "write `ignoring case` after the pattern; `.` already matches line breaks"
                                : "groups capture nothing, so write `(` … `)`")
            }
            index += 1
            let inner = try parseAlternation(until: end)
            guard index < end, scalars[index] == ")" else {
                throw error("unclosed `(`", at: start, help: "add `)`, or write `\\(` for the character")
            }
            index += 1
            return inner
        case ")":
            throw error("unmatched `)`", at: index, help: "write `\\)` for the character")
        case "[":
            return try parseClass(until: end)
        case "]":
            throw error("unmatched `]`", at: index, help: "write `\\]` for the character")
        case "{":
            throw error("`{` with nothing to repeat", at: index, help: "write `\\{` for the character")
        case "}":
            throw error("unmatched `}`", at: index, help: "write `\\}` for the character")
        case "*", "+", "?":
            throw error("`\(scalar)` with nothing to repeat", at: index, help: "write `\\\(scalar)` for the character")
        case ".":
            index += 1
            return .set(.all)
        case "^":
            throw error("`^` is allowed only at the start of a pattern", at: index,
                        help: "patterns match the whole value, so `^` adds nothing; write `\\^` for the character")
        case "$":
            throw error("`$` is allowed only at the end of a pattern", at: index,
                        help: "patterns match the whole value, so `$` adds nothing; write `\\$` for the character")
        case "\\":
            let escaped = try parseEscape(until: end, inClass: false)
            return node(for: escaped)
        default:
            try checkLiteral(scalar, at: index)
            index += 1
            return literalNode(scalar)
        }
    }

    /// Rejects control characters written as themselves (tab aside).
    private func checkLiteral(_ scalar: Unicode.Scalar, at position: Int) throws {
        if scalar != "\t", scalar.properties.generalCategory == .control {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            throw error("control character U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex) in a pattern", at: position,
                        help: "write `\\u{\(hex)}`")
        }
    }

    private mutating func parseQuantifiers(on atom: PatternNode, atomStart: Int, until end: Int) throws -> PatternNode {
        var node = atom
        var quantified = false
        while index < end {
            let scalar = scalars[index]
            let start = index
            var bounds: (min: Int, max: Int?)
            switch scalar {
            case "*": bounds = (0, nil); index += 1
            case "+": bounds = (1, nil); index += 1
            case "?": bounds = (0, 1); index += 1
            case "{": bounds = try parseCount(until: end)
            default: return node
            }
            if quantified {
                if scalar == "?" || scalar == "+" {
                    throw error("lazy and possessive quantifiers are not part of a pattern", at: start,
                                help: "counts are always greedy; remove `\(scalar)`")
                }
                throw error("a count cannot follow a count", at: start, length: index - start,
                            help: "put the counted part in a group: `(…){n}`")
            }
            // `?` (at most once) cannot nest repetition; any count that repeats can.
            if atom.repeatsWithoutBound, bounds.max.map({ $0 > 1 }) ?? true {
                throw error("nested repetition: a count applied to a group that already repeats without bound", at: start,
                            length: index - start, help: "rewrite it without the inner `*`, `+` or `{n,}`")
            }
            quantified = true
            node = .repetition(atom, min: bounds.min, max: bounds.max)
        }
        return node
    }

    /// Reads `{n}`, `{n,}` or `{n,m}` at the current `{`.
    private mutating func parseCount(until end: Int) throws -> (min: Int, max: Int?) {
        let start = index
        index += 1
        func number() -> Int? {
            var digits = ""
            while index < end, let scalar = current, ("0"..."9").contains(scalar) {
                digits.unicodeScalars.append(scalar)
                index += 1
            }
            return digits.isEmpty ? nil : Int(digits.prefix(9))
        }
        let help = "a count is `{n}`, `{n,}` or `{n,m}` with 0 ≤ n ≤ m ≤ \(PatternParser.maxCount); write `\\{` for the character"
        guard let low = number() else { throw error("malformed count", at: start, length: index - start + 1, help: help) }
        var high: Int? = low
        if index < end, scalars[index] == "," {
            index += 1
            high = number()
        }
        guard index < end, scalars[index] == "}" else {
            throw error("malformed count", at: start, length: index - start + 1, help: help)
        }
        index += 1
        let length = index - start
        if low > PatternParser.maxCount || (high ?? 0) > PatternParser.maxCount {
            throw error("count too large: at most \(PatternParser.maxCount)", at: start, length: length, help: help)
        }
        if let high, high < low {
            throw error("count out of order: \(low) is more than \(high)", at: start, length: length, help: help)
        }
        return (low, high)
    }

    // MARK: Escapes

    /// What an escape stands for.
    private enum Escaped {
        case scalar(Unicode.Scalar)
        case set(ScalarSet)
    }

    private mutating func parseEscape(until end: Int, inClass: Bool) throws -> Escaped {
        let start = index
        index += 1
        guard index < end, let next = current else {
            throw error("unfinished escape: `\\` at the end of the pattern", at: start, help: "write `\\\\` for a backslash")
        }
        if PatternParser.special.contains(next) || next == "-" {
            index += 1
            return .scalar(next)
        }
        switch next {
        case "d":
            index += 1
            return .set(.digits)
        case "w":
            index += 1
            return .set(.wordCharacters)
        case "u":
            return .scalar(try parseUnicodeEscape(start: start, until: end))
        case "s", "S":
            throw error("unknown escape `\\\(next)`", at: start, length: 2, help: "write `[ \\t]` or the characters themselves, or compare the trimmed value")
        case "D", "W":
            let set = next == "D" ? "0-9" : "A-Za-z0-9_"
            throw error("unknown escape `\\\(next)`", at: start, length: 2, help: "write `[^\(set)]`")
        case "b", "B", "A", "z", "Z", "G":
            throw error("unknown escape `\\\(next)`", at: start, length: 2,
                        help: "patterns match the whole value; there are no anchors or word boundaries")
        case "n", "t", "r", "f", "v", "e", "a", "0":
            let code: UInt32
            switch next {
            case "n": code = 0x0A
            case "t": code = 0x09
            case "r": code = 0x0D
            case "f": code = 0x0C
            case "v": code = 0x0B
            case "e": code = 0x1B
            case "a": code = 0x07
            default: code = 0x00
            }
            throw error("unknown escape `\\\(next)`", at: start, length: 2, help: "write `\\u{\(String(code, radix: 16, uppercase: true))}`")
        case "p", "P":
            throw error("unknown escape `\\\(next)`: there are no Unicode properties in a pattern", at: start, length: 2,
                        help: "write a class of the characters, such as `[a-z]`")
        case "1", "2", "3", "4", "5", "6", "7", "8", "9", "k":
            throw error("unknown escape `\\\(next)`: there are no back-references in a pattern", at: start, length: 2)
        case "x":
            throw error("unknown escape `\\x`", at: start, length: 2, help: "write `\\u{…}` with the hexadecimal code")
        default:
            throw error("unknown escape `\\\(next)`", at: start, length: 2,
                        help: "only `\\d`, `\\w`, `\\u{…}` and a backslash before one of `\\ / . [ ] ( ) { } * + ? | ^ $ -` are escapes")
        }
    }

    /// Reads `u{H…}` after a backslash at `start`.
    private mutating func parseUnicodeEscape(start: Int, until end: Int) throws -> Unicode.Scalar {
        index += 1
        let help = "write `\\u{` followed by 1 to 6 hexadecimal digits of a Unicode scalar and `}`"
        guard index < end, scalars[index] == "{" else { throw error("malformed `\\u` escape", at: start, length: 2, help: help) }
        index += 1
        var hex = ""
        while index < end, let scalar = current, scalar.isASCII, scalar.properties.isASCIIHexDigit {
            hex.unicodeScalars.append(scalar)
            index += 1
        }
        guard index < end, scalars[index] == "}" else {
            throw error("malformed `\\u` escape", at: start, length: index - start, help: help)
        }
        index += 1
        guard (1...6).contains(hex.count), let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
            throw error("`\\u{\(hex)}` is not a Unicode scalar", at: start, length: index - start, help: help)
        }
        return scalar
    }

    private func node(for escaped: Escaped) -> PatternNode {
        switch escaped {
        case .scalar(let scalar): literalNode(scalar)
        case .set(let set): .set(ignoringCase ? folded(set) : set)
        }
    }

    // MARK: Classes

    private mutating func parseClass(until end: Int) throws -> PatternNode {
        let start = index
        index += 1
        var negated = false
        if index < end, scalars[index] == "^" {
            negated = true
            index += 1
        }
        if index < end, scalars[index] == ":" {
            throw error("POSIX classes such as `[[:alpha:]]` are not part of a pattern", at: start,
                        help: "write the characters, such as `[A-Za-z]`")
        }
        var members = ScalarSet()
        var multiScalar: [String] = []
        var first = true
        while true {
            guard index < end, let scalar = current else {
                throw error("unclosed `[`", at: start, help: "add `]`, or write `\\[` for the character")
            }
            if scalar == "]" {
                if first {
                    throw error("empty class", at: start, length: index - start + 1, help: "write `\\]` for the character")
                }
                index += 1
                break
            }
            let memberStart = index
            let low = try parseClassMember(until: end)
            first = false
            // A range `X-Y`, unless `-` is the last member.
            if index + 1 < end, scalars[index] == "-", scalars[index + 1] != "]" {
                index += 1
                let high = try parseClassMember(until: end)
                guard case .scalar(let from) = low, case .scalar(let to) = high else {
                    throw error("a range's ends must be single characters", at: memberStart, length: index - memberStart,
                                help: "write `\\-` for the character")
                }
                guard from.isASCII, to.isASCII else {
                    throw error("a range's ends must be ASCII characters", at: memberStart, length: index - memberStart,
                                help: "list the characters instead")
                }
                guard from.value <= to.value else {
                    throw error("range out of order: `\(from)` comes after `\(to)`", at: memberStart, length: index - memberStart)
                }
                try addRange(from.value...to.value, to: &members, at: memberStart, length: index - memberStart)
                continue
            }
            if scalar == "-", !first, memberStart > start + (negated ? 2 : 1), index < end, scalars[index] != "]" {
                // A `-` in the middle that does not start a range.
                throw error("`-` in the middle of a class", at: memberStart, help: "write `\\-` for the character")
            }
            switch low {
            case .scalar(let scalar):
                let lowered = ignoringCase ? foldedScalars(scalar) : [ScalarSet(scalar)]
                if lowered.count == 1 {
                    members.formUnion(lowered[0])
                } else {
                    multiScalar.append(CaseFolding.lowercase(String(scalar)))
                }
            case .set(let set):
                members.formUnion(ignoringCase ? folded(set) : set)
            }
        }
        if negated {
            if !multiScalar.isEmpty {
                throw error("a negated class cannot hold a character whose lowercase is several characters", at: start,
                            length: index - start, help: "write it without `ignoring case`, or as an alternation")
            }
            return .set(members.inverted)
        }
        guard !multiScalar.isEmpty else { return .set(members) }
        var branches: [PatternNode] = members.isEmpty ? [] : [.set(members)]
        branches += multiScalar.map { PatternNode.literal($0) }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    /// Reads one member of a class: a literal, or an escape.
    private mutating func parseClassMember(until end: Int) throws -> Escaped {
        guard index < end, let scalar = current else {
            throw error("unclosed class", at: index, help: "add `]`")
        }
        switch scalar {
        case "\\":
            return try parseEscape(until: end, inClass: true)
        case "[":
            if index + 1 < end, scalars[index + 1] == ":" {
                throw error("POSIX classes such as `[[:alpha:]]` are not part of a pattern", at: index,
                            help: "write the characters, such as `[A-Za-z]`")
            }
            throw error("`[` inside a class", at: index, help: "write `\\[` for the character")
        case "]":
            throw error("a range needs an end before `]`", at: index, help: "write `\\-` for the character")
        default:
            try checkLiteral(scalar, at: index)
            index += 1
            return .scalar(scalar)
        }
    }

    /// Adds the ASCII range `range`, lowercased under `ignoring case` (where it must not hold
    /// both an uppercase and a lowercase letter).
    private func addRange(_ range: ClosedRange<UInt32>, to members: inout ScalarSet, at position: Int, length: Int) throws {
        guard ignoringCase else {
            members.insert(range)
            return
        }
        let upper: ClosedRange<UInt32> = 0x41...0x5A
        let lower: ClosedRange<UInt32> = 0x61...0x7A
        if range.overlaps(upper) && range.overlaps(lower) {
            throw error("range mixes upper- and lowercase letters under `ignoring case`", at: position, length: length,
                        help: "write the letters once in either case, such as `[a-z]`")
        }
        for value in range {
            if upper.contains(value) {
                members.insert((value + 0x20)...(value + 0x20))
            } else {
                members.insert(value...value)
            }
        }
    }

    // MARK: Case

    /// A literal scalar, lowercased under `ignoring case` (possibly to several scalars).
    private func literalNode(_ scalar: Unicode.Scalar) -> PatternNode {
        guard ignoringCase else { return .set(ScalarSet(scalar)) }
        let lowered = foldedScalars(scalar)
        if lowered.count == 1 { return .set(lowered[0]) }
        return .literal(CaseFolding.lowercase(String(scalar)))
    }

    /// The sets a scalar lowercases to, one per scalar of its lowercase mapping; a sigma in any
    /// case is both small sigmas.
    private func foldedScalars(_ scalar: Unicode.Scalar) -> [ScalarSet] {
        if PatternParser.sigmas.contains(scalar.value) {
            return [ScalarSet(ranges: [0x3C2...0x3C3])]
        }
        return CaseFolding.lowercase(String(scalar)).unicodeScalars.map { ScalarSet(Unicode.Scalar($0)) }
    }

    /// Capital sigma, final small sigma and small sigma.
    private static let sigmas: Set<UInt32> = [0x3A3, 0x3C2, 0x3C3]

    /// A class set (`\d`, `\w`) under `ignoring case`: its members lowercased (both are ASCII).
    private func folded(_ set: ScalarSet) -> ScalarSet {
        var result = ScalarSet()
        for range in set.ranges {
            for value in range where value < 0x80 {
                let lowered = (0x41...0x5A).contains(value) ? value + 0x20 : value
                result.insert(lowered...lowered)
            }
        }
        return result
    }
}
