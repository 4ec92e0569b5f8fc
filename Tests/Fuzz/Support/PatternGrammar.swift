/// Valid patterns built from the fuzzer's choices, each with its meaning written
/// down here from the spec (not read back from `PatternParser`): literals (escaped or not,
/// `\u{…}`), `.`, `\d`, `\w`, classes with ranges and negation, groups, alternation with empty
/// branches, and greedy counts; under `ignoring case` every literal and class member is
/// lowercased, and a sigma in any case stands for both small sigmas.
package struct PatternGrammar {
    /// The characters literals are drawn from: the fuzz worlds' strings are made of them.
    package var letters: [Unicode.Scalar]
    /// Whether the pattern is written for `ignoring case`.
    package var ignoringCase: Bool

    package init(letters: [Unicode.Scalar] = ["a", "b", "p", "r", "o", "x", "P", "R", "é", "É", ",", "0", "Σ"], ignoringCase: Bool) {
        self.letters = letters
        self.ignoringCase = ignoringCase
    }

    /// The characters that must be escaped to mean themselves.
    static let specialList: [Unicode.Scalar] = ["\\", "/", ".", "[", "]", "(", ")", "{", "}", "*", "+", "?", "|", "^", "$"]
    static let special = Set(specialList)

    /// A pattern's text (between the slashes) and its meaning.
    package func generate(_ choices: inout FuzzChoices) -> (text: String, pattern: ReferencePattern) {
        var (text, pattern, _) = alternation(&choices, depth: 0)
        if text.isEmpty {
            text = "a"
            pattern = literal("a")
        }
        if choices.chance(10) { text = "^" + text }
        if choices.chance(10), !text.hasSuffix("\\") { text += "$" }
        return (text, pattern)
    }

    /// The meaning of literal `scalar` (lowercased under `ignoring case`).
    func literal(_ scalar: Unicode.Scalar) -> ReferencePattern {
        .scalar(ranges: members(scalar), negated: false)
    }

    /// The scalar values `scalar` stands for as a literal or class member.
    func members(_ scalar: Unicode.Scalar) -> [ClosedRange<UInt32>] {
        guard ignoringCase else { return [scalar.value...scalar.value] }
        if [0x3A3, 0x3C2, 0x3C3].contains(scalar.value) { return [0x3C2...0x3C3] }
        if (0x41...0x5A).contains(scalar.value) { return [(scalar.value + 0x20)...(scalar.value + 0x20)] }
        if scalar == "É" { return [0xE9...0xE9] }
        return [scalar.value...scalar.value]
    }

    /// `scalar` written as a literal: escaped when special, sometimes as `\u{…}`.
    func written(_ scalar: Unicode.Scalar, _ choices: inout FuzzChoices, inClass: Bool) -> String {
        if choices.chance(10) { return "\\u{" + String(scalar.value, radix: 16, uppercase: choices.chance(50)) + "}" }
        if PatternGrammar.special.contains(scalar) || (inClass && scalar == "-") { return "\\" + String(scalar) }
        if !inClass && scalar == "-" && choices.chance(30) { return "\\-" }
        return String(scalar)
    }

    /// Branches joined by `|`; the flag says whether some part repeats without bound.
    func alternation(_ choices: inout FuzzChoices, depth: Int) -> (String, ReferencePattern, Bool) {
        var texts: [String] = [], patterns: [ReferencePattern] = [], unbounded = false
        for _ in 0..<(choices.chance(70) ? 1 : choices.within(2...3)) {
            let (text, pattern, repeats) = sequence(&choices, depth: depth)
            texts.append(text)
            patterns.append(pattern)
            unbounded = unbounded || repeats
        }
        return (texts.joined(separator: "|"), patterns.count == 1 ? patterns[0] : .alternation(patterns), unbounded)
    }

    func sequence(_ choices: inout FuzzChoices, depth: Int) -> (String, ReferencePattern, Bool) {
        var text = "", patterns: [ReferencePattern] = [], unbounded = false
        for _ in 0..<choices.below(depth == 0 ? 5 : 4) {
            var (atomText, atom, repeats) = self.atom(&choices, depth: depth)
            // A count on an atom that already repeats without bound may only be `?`.
            switch choices.below(10) {
            case 0:
                if !repeats { atomText += "*"; atom = .repetition(atom, min: 0, max: nil); repeats = true }
            case 1:
                if !repeats { atomText += "+"; atom = .repetition(atom, min: 1, max: nil); repeats = true }
            case 2:
                atomText += "?"; atom = .repetition(atom, min: 0, max: 1)
            case 3:
                let low = choices.below(3)
                switch choices.below(3) {
                case 0 where !repeats:
                    atomText += "{\(low)}"; atom = .repetition(atom, min: low, max: low)
                case 1 where !repeats:
                    atomText += "{\(low),}"; atom = .repetition(atom, min: low, max: nil); repeats = true
                case 2 where !repeats:
                    let high = low + choices.below(3)
                    atomText += "{\(low),\(high)}"; atom = .repetition(atom, min: low, max: high)
                default:
                    break
                }
            default:
                break
            }
            text += atomText
            patterns.append(atom)
            unbounded = unbounded || repeats
        }
        switch patterns.count {
        case 0: return ("", .empty, false)
        case 1: return (text, patterns[0], unbounded)
        default: return (text, .sequence(patterns), unbounded)
        }
    }

    func atom(_ choices: inout FuzzChoices, depth: Int) -> (String, ReferencePattern, Bool) {
        switch choices.below(depth < 3 ? 10 : 8) {
        case 0: return (".", .any, false)
        case 1: return ("\\d", .scalar(ranges: [0x30...0x39], negated: false), false)
        case 2:
            let ranges: [ClosedRange<UInt32>] = ignoringCase ? [0x30...0x39, 0x5F...0x5F, 0x61...0x7A] : [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
            return ("\\w", .scalar(ranges: ranges, negated: false), false)
        case 3: return characterClass(&choices)
        case 8, 9:
            let (text, pattern, repeats) = alternation(&choices, depth: depth + 1)
            return ("(" + text + ")", pattern, repeats)
        default:
            let scalar = choices.chance(85) ? choices.pick(letters) : choices.pick(PatternGrammar.specialList + ["-", " "])
            return (written(scalar, &choices, inClass: false), literal(scalar), false)
        }
    }

    /// `[…]` or `[^…]`: single members, ASCII ranges (not mixing cases under `ignoring case`),
    /// `\d`, and `-` first or last.
    func characterClass(_ choices: inout FuzzChoices) -> (String, ReferencePattern, Bool) {
        let negated = choices.chance(30)
        var text = negated ? "[^" : "["
        var ranges: [ClosedRange<UInt32>] = []
        let dashFirst = choices.chance(10)
        if dashFirst { text += "-"; ranges.append(0x2D...0x2D) }
        for _ in 0..<choices.within(1...3) {
            switch choices.below(5) {
            case 0:
                let (low, high): (UInt32, UInt32) = choices.pick([(0x61, 0x63), (0x41, 0x5A), (0x30, 0x35), (0x6F, 0x72), (0x20, 0x2F), (0x50, 0x50)])
                text += escapedInClass(Unicode.Scalar(low)!) + "-" + escapedInClass(Unicode.Scalar(high)!)
                for value in low...high { ranges += members(Unicode.Scalar(value)!) }
            case 1:
                text += "\\d"
                ranges.append(0x30...0x39)
            default:
                let scalar = choices.chance(80) ? choices.pick(letters) : choices.pick(["]", "[", "\\", "^", "/", ".", "-"] as [Unicode.Scalar])
                text += written(scalar, &choices, inClass: true)
                ranges += members(scalar)
            }
        }
        if !dashFirst, choices.chance(10) { text += "-"; ranges.append(0x2D...0x2D) }
        text += "]"
        return (text, .scalar(ranges: ranges, negated: negated), false)
    }

    func escapedInClass(_ scalar: Unicode.Scalar) -> String {
        PatternGrammar.special.contains(scalar) || scalar == "-" ? "\\" + String(scalar) : String(scalar)
    }
}
