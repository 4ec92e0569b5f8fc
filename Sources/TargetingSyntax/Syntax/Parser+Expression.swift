import TargetingBase

extension Parser {
    mutating func enterNesting(at token: Token) throws {
        depth += 1
        if depth > Parser.maxExpressionDepth {
            throw ParseFailure(.nestingTooDeep(limit: Parser.maxExpressionDepth, at: token.range))
        }
    }

    mutating func parseOr() throws -> Expression {
        let first = try parseAnd()
        guard current.isKeyword(.or) else { return first }
        var items = [first]
        while current.isKeyword(.or) {
            advance()
            items.append(try parseAnd())
        }
        return .or(items, span(from: first.range))
    }

    mutating func parseAnd() throws -> Expression {
        let first = try parseUnary()
        guard current.isKeyword(.and) else { return first }
        var items = [first]
        while current.isKeyword(.and) {
            advance()
            items.append(try parseUnary())
        }
        return .and(items, span(from: first.range))
    }

    mutating func parseUnary() throws -> Expression {
        let token = current
        if token.isKeyword(.not) {
            // Iterative over a chain of `not`s so a long chain cannot exhaust the stack.
            var nots: [Token] = []
            while current.isKeyword(.not) {
                try enterNesting(at: current)
                nots.append(advance())
            }
            var expression = try parsePrimary()
            for not in nots.reversed() {
                expression = .not(expression, span(from: not.range))
            }
            depth -= nots.count
            return expression
        }
        return try parsePrimary()
    }

    mutating func parsePrimary() throws -> Expression {
        let token = current
        switch token.kind {
        case .punctuation(.leftParen):
            try enterNesting(at: token)
            advance()
            let inner = try parseOr()
            _ = try expect(.rightParen, "to close `(`")
            depth -= 1
            return .group(inner, span(from: token.range))
        case .keyword(.now):
            advance()
            return .comparison(try parseComparison(subject: .now(token.range)))
        case .keyword(.placement):
            return .prerequisite(try parsePrerequisite())
        case .identifier:
            if let reference = try parseHistorySubject() {
                return .comparison(try parseComparison(subject: .attribute(reference)))
            }
            if isComparisonOperatorAhead() {
                let reference = try parseAttributeName(context: "")
                return .comparison(try parseComparison(subject: .attribute(reference)))
            }
            advance()
            if token.text.contains(".") {
                throw ParseFailure(.expectedComparison(after: token.text, found: current))
            }
            return .reference(Identifier(text: token.text, range: token.range))
        case .quotedName:
            let reference = try parseAttributeName(context: "")
            return .comparison(try parseComparison(subject: .attribute(reference)))
        default:
            throw ParseFailure(.expected("a segment name, a comparison, `placement`, `not` or `(`", found: token))
        }
    }

    /// Reads `shown PLACEMENTS [in DURATION]` or `last shown PLACEMENTS` when the current token
    /// begins one: `shown` (or `last shown`) followed by a placement name or `[`, where
    /// PLACEMENTS is one name or a list `[P1, P2, …]`. Anywhere else `shown` and `last` are
    /// attribute names, and nothing is read.
    mutating func parseHistorySubject() throws -> AttributeReference? {
        let start = current
        func beginsPlacements(_ token: Token) -> Bool { Parser.isPlacementName(token) || token.isPunctuation(.leftBracket) }
        let isLast = start.isIdentifier(Parser.lastWord) && peek().isIdentifier(Parser.shownWord) && beginsPlacements(peek(2))
        guard isLast || (start.isIdentifier(Parser.shownWord) && beginsPlacements(peek())) else { return nil }
        if isLast { advance() }
        advance()
        var names: [Identifier] = []
        if current.isPunctuation(.leftBracket) {
            advance()
            repeat {
                if !names.isEmpty { advance() }
                names.append(try parseName("a placement name in the list"))
            } while current.isPunctuation(.comma)
            _ = try expect(.rightBracket, "to close the list of placements")
        } else {
            names.append(try parseName("a placement name"))
        }
        let placements = names.map(\.text)
        if isLast {
            return AttributeReference(target: .lastShown(placements: placements), spelling: .bare, range: span(from: start.range),
                                      placementNames: names)
        }
        var window: Identifier?
        var windowMs: Int64?
        if current.isKeyword(.in), peek().kind == .duration {
            advance()
            let duration = advance()
            guard let ms = Parser.durationMilliseconds(duration.text) else {
                throw ParseFailure(.invalidDuration(duration.text, at: duration.range))
            }
            window = Identifier(text: duration.text, range: duration.range)
            windowMs = ms
        }
        return AttributeReference(target: .shownCount(placements: placements, window: windowMs), spelling: .bare,
                                  range: span(from: start.range), placementNames: names, window: window)
    }

    /// The word that begins a count of showings, `shown PLACEMENT`.
    static let shownWord = "shown"
    /// The word before `shown` in `last shown PLACEMENT`.
    static let lastWord = "last"

    /// Whether `token` can be a placement's name: a bare name without dots that is not a word
    /// of an operator (so `shown matches /…/` keeps comparing an attribute named `shown`).
    static func isPlacementName(_ token: Token) -> Bool {
        token.kind == .identifier && !token.text.contains(".") && token.operatorWord == nil
    }

    /// Whether the token after the current one begins a comparison operator (or is `=`, which
    /// the comparison reports as a mistake for `==`). `not` also negates an expression, so it
    /// counts only when the word after it continues an operator (`not in`).
    func isComparisonOperatorAhead() -> Bool {
        let next = peek()
        if next.isPunctuation(.equal) { return true }
        guard let word = next.operatorWord else { return false }
        let candidates = ComparisonOperator.beginning(with: [word])
        guard !candidates.isEmpty else { return false }
        guard next.isKeyword(.not) else { return true }
        guard let second = peek(2).operatorWord else { return false }
        return !ComparisonOperator.beginning(with: [word, second]).isEmpty
    }

    /// Reads the words of a comparison operator (`ComparisonOperator.words`), the longest that
    /// the tokens spell.
    mutating func parseOperator(after subject: ComparisonSubject) throws -> ComparisonOperator {
        let opToken = current
        if opToken.isPunctuation(.equal) { throw ParseFailure(.singleEqualsInComparison(at: opToken.range)) }
        var read: [String] = []
        var candidates = opToken.operatorWord.map { ComparisonOperator.beginning(with: [$0]) } ?? []
        guard !candidates.isEmpty else {
            let name: String
            switch subject {
            case .now: name = "now"
            case .attribute(let reference): name = reference.displayName
            }
            throw ParseFailure(.expectedComparison(after: name, found: opToken))
        }
        read.append(advance().operatorWord ?? "")
        while true {
            if let word = current.operatorWord {
                let longer = candidates.filter { $0.words.count > read.count && $0.words[read.count] == word }
                if !longer.isEmpty {
                    advance()
                    read.append(word)
                    candidates = longer
                    continue
                }
            }
            if let op = candidates.first(where: { $0.words.count == read.count }) { return op }
            let next = candidates[0].words[read.count]
            throw ParseFailure(.expected("`\(next)` after `\(read.joined(separator: " "))`", found: current))
        }
    }

    mutating func parseComparison(subject: ComparisonSubject) throws -> Comparison {
        let opToken = current
        let op = try parseOperator(after: subject)
        var operands: [Literal] = []
        var list: ListLiteral?
        switch op.arity {
        case .none: break
        case .one: operands.append(try parseLiteral())
        case .two:
            operands.append(try parseLiteral())
            _ = try expect(ComparisonOperator.boundsJoiner, "between the bounds of `\(op.rawValue)`")
            operands.append(try parseLiteral())
        case .list: list = try parseList()
        case .pattern: operands.append(try parsePattern(after: op))
        }
        var ignoringCaseRange: SourceRange?
        if current.isKeyword(.ignoring) {
            let ignoring = advance()
            _ = try expect(.case, "after `ignoring`")
            ignoringCaseRange = span(from: ignoring.range)
        }
        return Comparison(subject: subject, op: op, operatorRange: opToken.range, operands: operands, list: list,
                          ignoringCaseRange: ignoringCaseRange, range: span(from: subject.range))
    }

    /// Reads the `/…/` after `matches`; the pattern language is checked by the checker.
    mutating func parsePattern(after op: ComparisonOperator) throws -> Literal {
        let token = current
        guard token.kind == .pattern else {
            throw ParseFailure(.expectedPattern(after: op.rawValue, found: token))
        }
        advance()
        return Literal(value: .pattern(token.value), text: token.text, range: token.range)
    }

    mutating func parseList() throws -> ListLiteral {
        let open = try expect(.leftBracket, "to open a list")
        var items: [Literal] = []
        while !current.isPunctuation(.rightBracket) {
            items.append(try parseLiteral())
            if current.isPunctuation(.comma) {
                advance()
            } else if !current.isPunctuation(.rightBracket) {
                throw ParseFailure(.expected("`,` or `]` in a list", found: current))
            }
        }
        advance()
        return ListLiteral(items: items, range: span(from: open.range))
    }

    mutating func parseLiteral() throws -> Literal {
        let token = current
        switch token.kind {
        case .string:
            advance()
            return Literal(value: .string(token.value), text: token.text, range: token.range)
        case .number:
            advance()
            return try numberLiteral(token, negative: false, start: token.range)
        case .punctuation(.minus) where peek().kind == .number && peek().range.start.offset == token.range.end.offset:
            advance()
            let number = advance()
            return try numberLiteral(number, negative: true, start: token.range)
        case .keyword(.true):
            advance()
            return Literal(value: .bool(true), text: "true", range: token.range)
        case .keyword(.false):
            advance()
            return Literal(value: .bool(false), text: "false", range: token.range)
        case .date:
            advance()
            return Literal(value: .date(Timestamp.parse(token.text)), text: token.text, range: token.range)
        case .keyword(.now):
            advance()
            var offset: Int64 = 0
            var text = "now"
            if current.isPunctuation(.plus) || current.isPunctuation(.minus) {
                let sign = advance()
                guard current.kind == .duration else {
                    throw ParseFailure(.expected("a duration like `7d`, `12h`, `30m` or `10s` after `now \(sign.text)`", found: current))
                }
                let duration = advance()
                guard let ms = Parser.durationMilliseconds(duration.text) else {
                    throw ParseFailure(.invalidDuration(duration.text, at: duration.range))
                }
                offset = sign.isPunctuation(.minus) ? -ms : ms
                text = "now \(sign.text) \(duration.text)"
            }
            return Literal(value: .now(offset: offset), text: text, range: span(from: token.range))
        case .duration:
            throw ParseFailure(.bareDuration(token.text, at: token.range))
        default:
            throw ParseFailure(.expected("a literal (string, number, `true`, `false`, date or `now`)", found: token))
        }
    }

    func numberLiteral(_ token: Token, negative: Bool, start: SourceRange) throws -> Literal {
        let text = (negative ? "-" : "") + token.text
        guard let value = Double(text), value.isFinite else {
            throw ParseFailure(.numberOutOfRange(at: start))
        }
        return Literal(value: .number(value), text: text, range: span(from: start))
    }

    /// Milliseconds in a duration literal such as `7d`, or nil when they do not fit in a signed
    /// 64-bit count (more than 2^63 − 1 ms, about 292 million years).
    static func durationMilliseconds(_ text: String) -> Int64? {
        guard let unit = text.last, let count = Int64(text.dropLast()) else { return nil }
        let scale: Int64
        switch unit {
        case "d": scale = 86_400_000
        case "h": scale = 3_600_000
        case "m": scale = 60_000
        case "s": scale = 1_000
        default: return nil
        }
        let (product, overflow) = count.multipliedReportingOverflow(by: scale)
        return overflow ? nil : product
    }
}
