import TargetingBase
import TargetingSyntax

/// What may be written at the cursor of a completion request, read from the tokens before it.
///
/// Works on incomplete text: the document is lexed (the lexer never stops at an error) and
/// only the tokens that end before the word under the cursor are looked at, so a declaration
/// half typed, an unclosed brace or an unterminated string still has a context.
struct CompletionContext: Sendable {
    /// A kind of item that fits at the cursor.
    enum Expected: Hashable, Sendable {
        /// A keyword or phrase, e.g. `segment`, `has any`, `->`.
        case keyword(String)
        /// Every comparison operator.
        case comparisonOperators
        /// The declared segments.
        case segments
        /// The declared audiences.
        case audiences
        /// The declared placements, but those already listed (in a holdout's `except`).
        case placements(excluding: Set<String>)
        /// The declared experiments (after a row's `->`).
        case experiments
        /// The variants of an experiment not yet given in the row's block; every one when all are.
        case variants(of: String, given: Set<String>)
        /// What a `by` may name: `profile.id`, `profile.customer_user_id` and the declared
        /// string attributes.
        case drawKeys
        /// Custom attribute keys and `profile.` fields; `settable` leaves out derived fields.
        case attributes(settable: Bool)
        /// The custom attributes and built-in fields an `input` may write.
        case inputTargets
        /// Custom attributes the rules use without declaring them.
        case undeclaredAttributes
        /// The types of an `attribute` declaration.
        case types
        /// The values that fit an attribute: its allowed values, `true`/`false`, `now`; those
        /// already in the list being written are left out.
        case values(of: AttributeTarget, excluding: Set<String>)
        /// A pattern `/…/` (after `matches`).
        case pattern
        /// The flow ids (or paywall ids) a placement's rows and splits show; every one of the
        /// rule set when the placement is not known.
        case destinations(paywall: Bool, placement: String)
        /// What a prerequisite on the placement can ask for: its destinations, `no match`, and
        /// `EXPERIMENT.VARIANT` of the experiments its rows draw.
        case outcomes(placement: String)
    }

    /// The byte range an item replaces: the word under the cursor (empty at the cursor when
    /// there is none), or the content of the string literal the cursor is in.
    var replace: Range<Int>
    /// Whether the cursor is inside a string literal: items are then bare values.
    var inString = false
    /// Whether that string literal is unterminated: an item then closes it.
    var closesString = false
    /// The name being declared, left out of the names offered (a segment cannot use itself).
    var declaring: String?
    /// What fits, in the order it is offered.
    var expected: [Expected] = []

    /// The declaration keywords of a rules file.
    static let declarationKeywords = ["attribute", "input", "segment", "audience", "placement", "experiment", "holdout", "layer"]

    /// The context at byte `offset` of `source`; nil where nothing can be completed (inside a
    /// comment or a number). `isReference` tells a segment or audience name from an attribute.
    init?(source: SourceFile, offset: Int, isTests: Bool, isReference: (String) -> Bool) {
        let lexer = Lexer.lex(source)
        if lexer.comments.contains(where: { $0.range.start.offset < offset && offset <= $0.range.end.offset }) { return nil }
        let tokens = lexer.tokens.filter { $0.kind != .endOfFile }
        let touching = tokens.lastIndex { $0.range.start.offset < offset && offset <= $0.range.end.offset }
        var preceding: [Token]
        replace = offset..<offset
        if let touching {
            let token = tokens[touching]
            switch token.kind {
            case .identifier, .keyword, .quotedName:
                replace = token.range.start.offset..<token.range.end.offset
                preceding = Array(tokens[..<touching])
            case .string:
                let unterminated = lexer.diagnostics.contains { $0.kind == .unterminatedString && $0.range.start.offset == token.range.start.offset }
                let contentEnd = unterminated ? token.range.end.offset : token.range.end.offset - 1
                preceding = Array(tokens[..<touching])
                if offset <= contentEnd {
                    replace = (token.range.start.offset + 1)..<(unterminated ? offset : contentEnd)
                    inString = true
                    closesString = unterminated
                    if isTests, let destinations = CompletionContext.destination(in: preceding) {
                        expected = [destinations]
                        return
                    }
                    if !isTests, let destinations = CompletionContext.prerequisiteDestination(in: preceding) {
                        expected = [destinations]
                        return
                    }
                    guard let (target, listed) = CompletionContext.subject(in: preceding, before: preceding.count - 1, allowEqual: isTests) else { return nil }
                    expected = [.values(of: target, excluding: listed)]
                    return
                }
                preceding.append(token)
            case .number, .date, .duration:
                return nil
            case .pattern:
                // Nothing is offered inside a pattern; after its closing slash, what follows one.
                let unterminated = lexer.diagnostics.contains { $0.kind == .unterminatedPattern && $0.range.start.offset == token.range.start.offset }
                guard !unterminated, offset == token.range.end.offset else { return nil }
                preceding = Array(tokens[...touching])
            default:
                preceding = Array(tokens[...touching])
            }
        } else {
            preceding = tokens.filter { $0.range.end.offset <= offset }
        }
        let atLineStart = CompletionContext.isAtLineStart(source.bytes, replace.lowerBound)
        if isTests {
            expected = CompletionContext.inTests(preceding, atLineStart: atLineStart)
        } else {
            (expected, declaring) = CompletionContext.inRules(preceding, atLineStart: atLineStart, isReference: isReference)
        }
    }

    /// Whether only white space stands between the start of its line and `offset`.
    static func isAtLineStart(_ bytes: [UInt8], _ offset: Int) -> Bool {
        var index = offset
        while index > 0, bytes[index - 1] != 10, bytes[index - 1] != 13 {
            guard bytes[index - 1] == 32 || bytes[index - 1] == 9 else { return false }
            index -= 1
        }
        return true
    }

    /// What fits after `tokens` in a rules file, and the name being declared.
    static func inRules(_ tokens: [Token], atLineStart: Bool, isReference: (String) -> Bool) -> ([Expected], String?) {
        let declarationKeywords = CompletionContext.declarationKeywords.map(Expected.keyword)
        let starts: [Keyword] = [.attribute, .input, .segment, .audience, .placement, .experiment, .holdout]
        // `placement` after `=`, `and`, `or`, `not` or `(` begins a prerequisite, not a placement.
        func beginsDeclaration(_ index: Int) -> Bool {
            guard case .keyword(let keyword) = tokens[index].kind, starts.contains(keyword) else { return false }
            guard keyword == .placement, index > 0 else { return true }
            let before = tokens[index - 1]
            return !(before.isPunctuation(.equal) || before.isPunctuation(.leftParen) || before.isKeyword(.and) || before.isKeyword(.or) || before.isKeyword(.not))
        }
        guard let start = tokens.indices.last(where: beginsDeclaration) else {
            return (atLineStart || tokens.isEmpty ? declarationKeywords : [], nil)
        }
        let rest = Array(tokens[(start + 1)...])
        guard let last = rest.last else {
            // Right after the keyword: a new name, except for `attribute`, which may declare one in use.
            return (tokens[start].isKeyword(.attribute) ? [.undeclaredAttributes] : [], nil)
        }
        let atDeclarationStart = atLineStart ? declarationKeywords : []
        switch tokens[start].kind {
        case .keyword(.attribute):
            if last.isPunctuation(.colon) { return ([.types], nil) }
            if rest.count == 3, rest[1].isPunctuation(.colon) {
                if last.isIdentifier("string") { return ([.keyword("one of")] + declarationKeywords, nil) }
                if last.isKeyword(.set) { return ([.keyword("of")] + declarationKeywords, nil) }
                return (declarationKeywords, nil)
            }
            if last.isKeyword(.one) { return ([.keyword("of")], nil) }
            if last.isPunctuation(.rightBracket) { return (declarationKeywords, nil) }
            return ([], nil)
        case .keyword(.input):
            if last.isPunctuation(.arrow) { return ([.inputTargets], nil) }
            if rest.count >= 2, rest[rest.count - 2].isPunctuation(.arrow) { return (declarationKeywords, nil) }
            return ([], nil)
        case .keyword(.placement):
            return (placement(rest, declarationKeywords: declarationKeywords), nil)
        case .keyword(.experiment):
            return (experiment(rest, atDeclarationStart: atDeclarationStart), nil)
        case .keyword(.holdout):
            return (holdout(rest, atDeclarationStart: atDeclarationStart), nil)
        default:
            let declaring = rest[0].kind == .identifier ? rest[0].text : nil
            guard rest.count >= 2 else { return ([.keyword("=")], declaring) }
            guard rest[1].isPunctuation(.equal) else { return ([], declaring) }
            let inAudience = tokens[start].isKeyword(.audience)
            let found = expression(Array(rest[2...]), all: tokens, inAudience: inAudience, isReference: isReference)
            return (found + (found.contains(.keyword("or")) ? atDeclarationStart : []), declaring)
        }
    }

    /// What fits inside a placement after `rest` (the tokens after `placement`).
    ///
    /// Inside the placement's braces a row is written; inside a row's `split "ID" [by KEY] { … }`
    /// weighted variants, and inside its `EXPERIMENT { … }` the experiment's variants.
    static func placement(_ rest: [Token], declarationKeywords: [Expected]) -> [Expected] {
        /// An open brace: the placement's, a split's, or an experiment row's (with the variants
        /// given in it so far).
        enum Block { case placement, split, experiment(String, given: Set<String>) }
        var blocks: [Block] = []
        for (index, token) in rest.enumerated() {
            if token.isPunctuation(.leftBrace) {
                if blocks.isEmpty {
                    blocks.append(.placement)
                } else if index >= 2, rest[index - 1].kind == .identifier, rest[index - 2].isPunctuation(.arrow) {
                    blocks.append(.experiment(rest[index - 1].text, given: []))
                } else {
                    blocks.append(.split)
                }
            } else if token.isPunctuation(.rightBrace) {
                if !blocks.isEmpty { blocks.removeLast() }
                if blocks.isEmpty { break }
            } else if token.isPunctuation(.arrow), index >= 1, rest[index - 1].kind == .identifier,
                      case .experiment(let name, var given)? = blocks.last, blocks.count == 2 {
                given.insert(rest[index - 1].text)
                blocks[blocks.count - 1] = .experiment(name, given: given)
            }
        }
        guard let last = rest.last else { return [] }
        guard let block = blocks.last else { return rest.contains { $0.isPunctuation(.leftBrace) } ? declarationKeywords : [] }
        let before = rest.count >= 2 ? rest[rest.count - 2] : nil
        let endsDestination = last.isKeyword(.nothing) || last.isPunctuation(.rightBrace)
            || (last.kind == .string && (before?.isKeyword(.flow) == true || before?.isKeyword(.paywall) == true))
        if last.isPunctuation(.arrow) {
            guard case .placement = block else { return ["flow", "paywall", "nothing"].map(Expected.keyword) }
            return ["flow", "paywall", "nothing", "split"].map(Expected.keyword) + [.experiments]
        }
        switch block {
        case .placement:
            if last.isPunctuation(.leftBrace) || endsDestination { return [.audiences, .keyword("everyone"), .keyword(PlacementRow.alwaysWord)] }
            // After a row's leading `always`: its audience (an audience named `always` takes `->`).
            if last.isIdentifier(PlacementRow.alwaysWord), before.map({ $0.isPunctuation(.leftBrace) || $0.isKeyword(.nothing) || $0.isPunctuation(.rightBrace) || $0.kind == .string }) ?? false {
                return [.audiences, .keyword("->")]
            }
            if last.kind == .string, before?.isKeyword(.split) == true { return [.keyword("by"), .keyword("{")] }
            if last.isIdentifier("by"), before?.kind == .string { return [.drawKeys] }
            if last.kind == .identifier || last.kind == .quotedName, before?.isIdentifier("by") == true { return [.keyword("{")] }
            if last.kind == .identifier, before?.isPunctuation(.arrow) == true { return [.keyword("{")] }
            if last.kind == .identifier || last.isKeyword(.everyone) { return [.keyword("->")] }
        case .split:
            if last.isPunctuation(.percent) { return [.keyword("->")] }
        case .experiment(let name, let given):
            if last.isPunctuation(.leftBrace) || endsDestination { return [.variants(of: name, given: given)] }
            if last.kind == .identifier { return [.keyword("->")] }
        }
        return []
    }

    /// What fits in `experiment NAME [by KEY] { WEIGHT% VARIANT … }` after `rest` (the tokens
    /// after `experiment`).
    static func experiment(_ rest: [Token], atDeclarationStart: [Expected]) -> [Expected] {
        if let open = rest.firstIndex(where: { $0.isPunctuation(.leftBrace) }) {
            return rest[open...].contains { $0.isPunctuation(.rightBrace) } ? atDeclarationStart : []
        }
        guard let last = rest.last else { return [] }
        if rest.count == 1, last.kind == .identifier { return [.keyword("by"), .keyword("{")] }
        if rest.count == 2, last.isIdentifier("by") { return [.drawKeys] }
        if rest.count == 3, rest[1].isIdentifier("by") { return [.keyword("{")] }
        return []
    }

    /// What fits in `holdout NAME WEIGHT% [by KEY] [except PLACEMENT, …]` after `rest` (the
    /// tokens after `holdout`).
    static func holdout(_ rest: [Token], atDeclarationStart: [Expected]) -> [Expected] {
        guard let last = rest.last, rest.count >= 3, rest[2].isPunctuation(.percent) else { return [] }
        if let except = rest.firstIndex(where: { $0.isIdentifier("except") }), except >= 3 {
            let listed = Set(rest[(except + 1)...].filter { $0.kind == .identifier }.map(\.text))
            if last.isIdentifier("except") || last.isPunctuation(.comma) { return [.placements(excluding: listed)] }
            return atDeclarationStart
        }
        if last.isIdentifier("by"), rest.count == 4 { return [.drawKeys] }
        if rest.count == 3 || (rest.count == 5 && rest[3].isIdentifier("by")) {
            return (rest.count == 3 ? [.keyword("by")] : []) + [.keyword("except")] + atDeclarationStart
        }
        return []
    }

    /// What fits after `expression`, the tokens of a segment's or an audience's expression so
    /// far (`all` is every token before the cursor, which ends with them).
    static func expression(_ expression: [Token], all: [Token], inAudience: Bool, isReference: (String) -> Bool) -> [Expected] {
        /// Whether an operand may begin after `expression[index]` (-1: after `=`).
        func operandStart(_ index: Int) -> Bool {
            guard index >= 0 else { return true }
            let token = expression[index]
            if token.isKeyword(.or) || token.isPunctuation(.leftParen) { return true }
            if token.isKeyword(ComparisonOperator.boundsJoiner), operatorEnding(at: index - 2, in: expression)?.arity == .two { return false }
            if token.isKeyword(.and) { return true }
            if token.isKeyword(.not) { return operandStart(index - 1) }
            return false
        }
        let last = expression.count - 1
        if operandStart(last) {
            return inAudience ? [.segments, .keyword("not")]
                : [.segments, .attributes(settable: false), .keyword("now"), .keyword("placement"), .keyword("not")]
        }
        // `placement P -> OUTCOME` or `placement P -> [OUTCOME, …]`.
        if !inAudience, let start = expression.indices.last(where: { expression[$0].isKeyword(.placement) && operandStart($0 - 1) }) {
            let after = Array(expression[(start + 1)...])
            guard let name = after.first else { return [.placements(excluding: [])] }
            guard after.count > 1 else { return [.keyword("->")] }
            if after[1].isPunctuation(.arrow) {
                let rest = Array(after[2...])
                let isList = rest.first?.isPunctuation(.leftBracket) ?? false
                let open = isList && !rest.contains { $0.isPunctuation(.rightBracket) }
                guard let final = rest.last else { return [.outcomes(placement: name.text), .keyword("[")] }
                if final.isKeyword(.flow) || final.isKeyword(.paywall) { return [.destinations(paywall: final.isKeyword(.paywall), placement: name.text)] }
                if final.isIdentifier("no") { return [.keyword("match")] }
                if open { return final.isPunctuation(.leftBracket) || final.isPunctuation(.comma) ? [.outcomes(placement: name.text)] : [.keyword(","), .keyword("]")] }
                return [.keyword("and"), .keyword("or")]
            }
        }
        // `shown PLACEMENT [in DURATION]` and `last shown PLACEMENT`: a placement after `shown`
        // (which may also be an attribute, so its operators too), `shown` after `last`.
        if !inAudience, expression[last].isIdentifier("shown") {
            if last >= 1, expression[last - 1].isIdentifier("last"), operandStart(last - 2) { return [.placements(excluding: [])] }
            if operandStart(last - 1) { return [.placements(excluding: []), .comparisonOperators] }
        }
        if !inAudience, expression[last].isIdentifier("last"), operandStart(last - 1) {
            return [.keyword("shown"), .comparisonOperators]
        }
        if !inAudience, last >= 1, expression[last].kind == .identifier, expression[last - 1].isIdentifier("shown") {
            let afterLast = last >= 2 && expression[last - 2].isIdentifier("last")
            if afterLast, operandStart(last - 3) { return [.comparisonOperators] }
            if !afterLast, operandStart(last - 2) { return [.keyword("in"), .comparisonOperators] }
        }
        let token = expression[last]
        let connectives: [Expected] = [.keyword("and"), .keyword("or")]
        if token.kind == .identifier || token.kind == .quotedName, operandStart(last - 1) {
            let isName = token.kind == .identifier && !AttributeTarget.isBuiltinSpelling(token.text) && isReference(token.text)
            return inAudience || isName ? connectives : [.comparisonOperators]
        }
        if token.isKeyword(.now), operandStart(last - 1) { return [.comparisonOperators] }
        let valueHere = subject(in: all, before: all.count - 1, allowEqual: false).map { [Expected.values(of: $0.0, excluding: $0.1)] } ?? []
        // Part of an operator: the words that complete it, after a value when it is complete
        // already and takes one (`has` → a value, `any`, `all`, `none`).
        if let (written, ops) = operatorBeginning(ending: expression) {
            let rest = ops.filter { $0.words.count > written.count }.map { Expected.keyword($0.words.dropFirst(written.count).joined(separator: " ")) }
            let whole = ops.first { $0.words.count == written.count }
            switch whole?.arity {
            case nil: return rest
            case .one?, .two?: if !rest.isEmpty { return valueHere + rest }
            case .list?: return rest
            case .pattern?: return [.pattern] + rest
            case .none?: if !rest.isEmpty { return rest }
            }
        }
        switch token.kind {
        case .keyword(.ignoring): return [.keyword("case")]
        case .punctuation(.minus), .punctuation(.plus): return []
        default: break
        }
        if !valueHere.isEmpty { return valueHere }
        switch token.kind {
        case .string, .punctuation(.rightBracket), .pattern:
            return connectives + [.keyword("ignoring case")]
        case .number, .date, .duration, .keyword(.true), .keyword(.false), .punctuation(.rightParen), .keyword(.set), .keyword(.case), .keyword(.now):
            return connectives
        case .identifier where isReference(token.text):
            return connectives
        default:
            return []
        }
    }

    /// The longest run of words at the end of `tokens` that begins an operator, with the
    /// operators it begins, or nil when the last token is no such word.
    static func operatorBeginning(ending tokens: [Token]) -> (written: [String], operators: [ComparisonOperator])? {
        let longest = ComparisonOperator.allCases.map(\.words.count).max() ?? 0
        for count in stride(from: min(longest, tokens.count), through: 1, by: -1) {
            let words = tokens.suffix(count).compactMap(\.operatorWord)
            guard words.count == count else { continue }
            let operators = ComparisonOperator.beginning(with: words)
            if !operators.isEmpty { return (words, operators) }
        }
        return nil
    }

    /// The longest operator whose words end at `tokens[index]`.
    static func operatorEnding(at index: Int, in tokens: [Token]) -> ComparisonOperator? {
        guard index >= 0, index < tokens.count else { return nil }
        return ComparisonOperator.allCases.filter { op in
            let words = op.words
            guard index + 1 >= words.count else { return false }
            return tokens[(index + 1 - words.count)...index].map(\.operatorWord) == words.map { Optional($0) }
        }.max { $0.words.count < $1.words.count }
    }

    /// What fits after `tokens` in a tests file.
    static func inTests(_ tokens: [Token], atLineStart: Bool) -> [Expected] {
        guard let start = tokens.lastIndex(where: { $0.isKeyword(.test) }) else { return atLineStart || tokens.isEmpty ? [.keyword("test")] : [] }
        var blocks: [Bool] = []  // for each open brace: whether it opened a `given`
        for index in (start + 1)..<tokens.count {
            if tokens[index].isPunctuation(.leftBrace) { blocks.append(tokens[index - 1].isKeyword(.given)) }
            if tokens[index].isPunctuation(.rightBrace), !blocks.isEmpty { blocks.removeLast() }
        }
        guard let inGiven = blocks.last else {
            return tokens[(start + 1)...].contains { $0.isPunctuation(.leftBrace) } ? [.keyword("test")] : []
        }
        let last = tokens[tokens.count - 1]
        let before = tokens.count >= 2 ? tokens[tokens.count - 2] : nil
        if inGiven {
            if last.isPunctuation(.equal) || last.isPunctuation(.leftBracket) || last.isPunctuation(.comma) {
                return subject(in: tokens, before: tokens.count - 1, allowEqual: true).map { [.values(of: $0.0, excluding: $0.1)] } ?? []
            }
            if last.kind == .identifier || last.kind == .quotedName, before?.isPunctuation(.equal) != true {
                return [.keyword("=")]
            }
            return last.isPunctuation(.leftBrace) || atLineStart ? [.attributes(settable: true)] : []
        }
        if last.isKeyword(.expect) { return [.placements(excluding: []), .audiences, .segments, .keyword("not")] }
        if last.isKeyword(.not), before?.isKeyword(.expect) == true { return [.audiences, .segments] }
        if last.kind == .identifier, before?.isKeyword(.expect) == true, !atLineStart { return [.keyword("->")] }
        if last.isPunctuation(.arrow) { return ["flow", "paywall", "nothing", "no match"].map(Expected.keyword) }
        if let destinations = destination(in: tokens) { return [destinations] }
        if last.isKeyword(.given) { return [.keyword("{"), .keyword("events"), .keyword("profile")] }
        return last.isPunctuation(.leftBrace) || atLineStart ? ["now", "given", "expect"].map(Expected.keyword) : []
    }

    /// The destination ids that fit after `tokens` when they end with `placement P -> flow` (or
    /// `paywall`), alone or in a list of outcomes.
    static func prerequisiteDestination(in tokens: [Token]) -> Expected? {
        guard let last = tokens.last, last.isKeyword(.flow) || last.isKeyword(.paywall),
              let start = tokens.lastIndex(where: { $0.isKeyword(.placement) }), start + 2 < tokens.count,
              tokens[start + 1].kind == .identifier, tokens[start + 2].isPunctuation(.arrow) else { return nil }
        return .destinations(paywall: last.isKeyword(.paywall), placement: tokens[start + 1].text)
    }

    /// The destination ids that fit after `tokens` when they end with `expect P -> flow` or
    /// `expect P -> paywall`.
    static func destination(in tokens: [Token]) -> Expected? {
        let count = tokens.count
        guard count >= 4, tokens[count - 1].isKeyword(.flow) || tokens[count - 1].isKeyword(.paywall),
              tokens[count - 2].isPunctuation(.arrow), tokens[count - 3].kind == .identifier, tokens[count - 4].isKeyword(.expect)
        else { return nil }
        return .destinations(paywall: tokens[count - 1].isKeyword(.paywall), placement: tokens[count - 3].text)
    }

    /// The attribute a value written after `tokens[index]` is compared with (or, in a test's
    /// `given`, assigned to), and the strings already in the list being written.
    static func subject(in tokens: [Token], before index: Int, allowEqual: Bool) -> (AttributeTarget, Set<String>)? {
        guard index >= 0 else { return nil }
        var at = index
        var listed: Set<String> = []
        if tokens[at].isPunctuation(.comma) || tokens[at].isPunctuation(.leftBracket) {
            while at >= 0, !tokens[at].isPunctuation(.leftBracket) {
                switch tokens[at].kind {
                case .string: listed.insert(tokens[at].value)
                case .number, .punctuation(.comma): break
                default: return nil
                }
                at -= 1
            }
            at -= 1
            guard at >= 0 else { return nil }
        }
        let subject: Int
        if tokens[at].isPunctuation(.equal) {
            guard allowEqual else { return nil }
            subject = at - 1
        } else if let op = operatorEnding(at: at, in: tokens), op.arity != .none {
            // Right after an operator that takes operands: its first.
            subject = at - op.words.count
        } else if tokens[at].isKeyword(ComparisonOperator.boundsJoiner), let op = operatorEnding(at: at - 2, in: tokens), op.arity == .two {
            // After `between LOW and`: its second.
            subject = at - 2 - op.words.count
        } else {
            return nil
        }
        guard subject >= 0 else { return nil }
        let token = tokens[subject]
        switch token.kind {
        case .identifier:
            return (AttributeTarget(written: token.text) ?? .custom(token.text), listed)
        case .quotedName:
            return (.custom(token.value), listed)
        default:
            return nil
        }
    }
}
