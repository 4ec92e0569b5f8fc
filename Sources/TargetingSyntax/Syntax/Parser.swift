import TargetingBase

/// Parses a rules file into declarations.
///
/// A syntax error abandons the declaration it is in and parsing resumes at the next
/// declaration keyword, so one run reports every broken declaration.
package struct Parser {
    /// The deepest nesting of parentheses and `not` an expression may have.
    package static let maxExpressionDepth = 256

    var tokens: [Token]
    var index = 0
    var diagnostics: [Diagnostic] = []
    var depth = 0
    let file: SourceFile

    /// Parses a rules file; the result holds every declaration that parsed and the diagnostics.
    package static func parseRules(_ file: SourceFile) -> (RuleFile, [Diagnostic]) {
        let lexed = Lexer.lex(file)
        var parser = Parser(tokens: lexed.tokens, file: file)
        var declarations: [Declaration] = []
        var unparsed: [UnparsedDeclaration] = []
        while !parser.atEnd {
            let start = parser.index
            do {
                if let declaration = try parser.parseDeclaration() { declarations.append(declaration) }
            } catch {
                if let error = error as? ParseFailure { parser.diagnostics.append(error.diagnostic) }
                if let name = parser.declaredName(at: start) { unparsed.append(name) }
                parser.recover(from: start)
            }
        }
        let all = lexed.diagnostics + parser.diagnostics
        let ruleFile = RuleFile(source: file, declarations: declarations, comments: lexed.comments,
                                unparsed: unparsed, hasSyntaxErrors: all.contains(where: \.isError))
        return (ruleFile, all)
    }

    /// The name declared by the declaration starting at token `start`, when its keyword and
    /// name were read before it broke.
    func declaredName(at start: Int) -> UnparsedDeclaration? {
        guard start + 1 < tokens.count else { return nil }
        let name = tokens[start + 1]
        if Parser.beginsLayer(at: start, in: tokens) { return UnparsedDeclaration(kind: .layer, name: name.text, range: name.range) }
        guard case .keyword(let keyword) = tokens[start].kind else { return nil }
        let kind: UnparsedDeclaration.Kind
        switch keyword {
        case .segment: kind = .segment
        case .audience: kind = .audience
        case .placement: kind = .placement
        case .attribute: kind = .attribute
        case .experiment: kind = .experiment
        case .holdout: kind = .holdout
        default: return nil
        }
        switch name.kind {
        case .identifier: return UnparsedDeclaration(kind: kind, name: name.text, range: name.range)
        case .quotedName where kind == .attribute: return UnparsedDeclaration(kind: kind, name: name.value, range: name.range)
        default: return nil
        }
    }

    init(tokens: [Token], file: SourceFile) {
        self.tokens = tokens
        self.file = file
    }

    // MARK: - Token access

    var current: Token { tokens[index] }
    var atEnd: Bool { current.kind == .endOfFile }

    func peek(_ ahead: Int = 1) -> Token {
        tokens[min(index + ahead, tokens.count - 1)]
    }

    @discardableResult
    mutating func advance() -> Token {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    /// The end of the last consumed token.
    var previousEnd: SourcePosition {
        index > 0 ? tokens[index - 1].range.end : current.range.start
    }

    func span(from start: SourceRange) -> SourceRange {
        SourceRange(file: start.file, start: start.start, end: max(previousEnd, start.start))
    }

    mutating func expect(_ punctuation: Punctuation, _ context: String) throws -> Token {
        guard current.isPunctuation(punctuation) else {
            throw ParseFailure(.expected("`\(punctuation.rawValue)` \(context)", found: current))
        }
        return advance()
    }

    mutating func expect(_ keyword: Keyword, _ context: String) throws -> Token {
        guard current.isKeyword(keyword) else {
            throw ParseFailure(.expected("`\(keyword.rawValue)` \(context)", found: current))
        }
        return advance()
    }

    mutating func expectString(_ what: String) throws -> Token {
        guard current.kind == .string else { throw ParseFailure(.expected(what, found: current)) }
        return advance()
    }

    /// The words of expressions a misspelling is compared with: the operators' words and
    /// `and`, `or`, `not`, `ignoring`, `case`.
    static let expressionWords: [String] = {
        var words: [String] = []
        for word in ComparisonOperator.allCases.flatMap(\.words) + ["and", "or", "not", "ignoring", "case"]
        where word.first?.isLetter == true && !words.contains(word) { words.append(word) }
        return words
    }()

    static let declarationKeywords: Set<Keyword> = [.attribute, .input, .segment, .audience, .placement, .test, .experiment, .holdout]

    /// Skips to the next token that starts a declaration (after the one that failed, which
    /// started at token `start`).
    mutating func recover(from start: Int) {
        depth = 0
        if index == start, !atEnd { advance() }
        while !atEnd {
            // `placement NAME ->` inside a segment is a prerequisite, not a placement's start.
            if case .keyword(let keyword) = current.kind, Parser.declarationKeywords.contains(keyword),
               keyword != .placement || !peek(2).isPunctuation(.arrow) { return }
            if Parser.beginsLayer(at: index, in: tokens) { return }
            advance()
        }
    }

    // MARK: - Declarations

    mutating func parseDeclaration() throws -> Declaration? {
        let token = current
        switch token.kind {
        case .keyword(.attribute): return .attribute(try parseAttribute())
        case .keyword(.input): return .input(try parseInput())
        case .keyword(.segment): return .segment(try parseNamedExpression())
        case .keyword(.audience): return .audience(try parseNamedExpression())
        case .keyword(.placement): return .placement(try parsePlacement())
        case .keyword(.experiment): return .experiment(try parseExperiment())
        case .keyword(.holdout): return .holdout(try parseHoldout())
        case .keyword(.test):
            throw ParseFailure(.testInRulesFile(at: token.range))
        case .identifier where Parser.beginsLayer(at: index, in: tokens):
            return .layer(try parseLayer())
        default:
            let suggestion = token.kind == .identifier
                ? Suggestion.nearest(to: token.text, in: Parser.declarationKeywords.filter { $0 != .test }.map(\.rawValue)) : nil
            throw ParseFailure(.expectedDeclaration(found: token, suggestion: suggestion))
        }
    }

    mutating func parseAttribute() throws -> AttributeDeclaration {
        let start = advance().range
        let name = try parseAttributeName(context: "after `attribute`")
        _ = try expect(.colon, "after the attribute name")
        let typeToken = current
        let type: ValueType
        switch typeToken.kind {
        case .identifier:
            guard let named = ValueType(rawValue: typeToken.text), named != .set else {
                throw ParseFailure(.unknownType(typeToken.text, at: typeToken.range))
            }
            type = named
        case .keyword(.set):
            type = .set
        default:
            throw ParseFailure(.expected("a type (`string`, `number`, `bool`, `date`, `version` or `set`)", found: typeToken))
        }
        advance()
        var allowed: ListLiteral?
        if type == .set, current.isKeyword(.of) {
            advance()
            allowed = try parseList()
        } else if current.isKeyword(.one) {
            advance()
            _ = try expect(.of, "after `one`")
            allowed = try parseList()
        }
        return AttributeDeclaration(name: name, type: type, typeRange: typeToken.range, allowed: allowed, range: span(from: start))
    }

    /// A custom attribute key or `profile.FIELD`.
    mutating func parseAttributeName(context: String) throws -> AttributeReference {
        let token = current
        switch token.kind {
        case .identifier:
            advance()
            return AttributeReference(target: SubjectTarget(written: token.text) ?? .custom(""), spelling: .bare, range: token.range)
        case .quotedName:
            advance()
            return AttributeReference(target: .custom(token.value), spelling: .backticks, range: token.range)
        default:
            throw ParseFailure(.expected("an attribute name \(context)", found: token))
        }
    }

    mutating func parseElementName() throws -> ElementName {
        let token = current
        switch token.kind {
        case .identifier:
            advance()
            return ElementName(text: token.text, spelling: .bare, range: token.range)
        case .quotedName:
            advance()
            return ElementName(text: token.value, spelling: .backticks, range: token.range)
        case .string:
            advance()
            return ElementName(text: token.value, spelling: .string, range: token.range)
        default:
            throw ParseFailure(.expected("an element id", found: token))
        }
    }

    mutating func parseInput() throws -> InputDeclaration {
        let start = advance().range
        var screen: ElementName?
        var element = try parseElementName()
        if current.isPunctuation(.slash) {
            advance()
            screen = element
            element = try parseElementName()
        }
        _ = try expect(.arrow, "after the input element")
        let target = try parseAttributeName(context: "after `->`")
        return InputDeclaration(screen: screen, element: element, target: target, range: span(from: start))
    }

    mutating func parseName(_ what: String) throws -> Identifier {
        let token = current
        guard token.kind == .identifier else {
            if case .keyword(let keyword) = token.kind {
                throw ParseFailure(.reservedWord(keyword.rawValue, at: token.range))
            }
            throw ParseFailure(.expected(what, found: token))
        }
        advance()
        if token.text.contains(".") {
            throw ParseFailure(.invalidName(token.text, at: token.range))
        }
        return Identifier(text: token.text, range: token.range)
    }

    mutating func parseNamedExpression() throws -> NamedExpression {
        let keyword = advance()
        let name = try parseName("a \(keyword.text) name")
        _ = try expect(.equal, "after the \(keyword.text) name")
        depth = 0
        let expression = try parseOr()
        // A word where the expression ended is most likely a misspelled keyword (`betwen`,
        // `adn`): the declaration is abandoned, so its misread parts raise nothing more.
        if current.kind == .identifier, let word = Suggestion.nearest(to: current.text, in: Parser.expressionWords) {
            throw ParseFailure(.misspelledKeyword(current, suggestion: word))
        }
        return NamedExpression(name: name, expression: expression, range: span(from: keyword.range))
    }

    // MARK: - Placements

    mutating func parsePlacement() throws -> PlacementDeclaration {
        let start = advance().range
        let name = try parseName("a placement name")
        _ = try expect(.leftBrace, "to open the placement")
        var rows: [PlacementRow] = []
        while !current.isPunctuation(.rightBrace) {
            let rowStart = current.range
            // `always` starts an `always` row when an audience follows it; `always -> …` is a
            // row of the audience named `always`.
            var always: SourceRange?
            if current.kind == .identifier, current.text == PlacementRow.alwaysWord,
               peek().kind == .identifier || peek().kind == .keyword(.everyone) {
                always = advance().range
            }
            let audience: RowAudience
            switch current.kind {
            case .keyword(.everyone):
                audience = .everyone(advance().range)
            case .identifier:
                audience = .audience(try parseName("an audience name"))
            default:
                throw ParseFailure(.expected("an audience name, `everyone` or `}`", found: current))
            }
            _ = try expect(.arrow, "after the audience")
            let destination = try parseDestination(allowSplit: true)
            rows.append(PlacementRow(audience: audience, destination: destination, range: span(from: rowStart), always: always))
        }
        advance()
        return PlacementDeclaration(name: name, rows: rows, range: span(from: start))
    }

    mutating func parseDestination(allowSplit: Bool) throws -> Destination {
        let token = current
        switch token.kind {
        case .keyword(.flow):
            advance()
            let id = try expectString("a flow id string")
            return .flow(id.value, span(from: token.range))
        case .keyword(.paywall):
            advance()
            let id = try expectString("a paywall id string")
            return .paywall(id.value, span(from: token.range))
        case .keyword(.nothing):
            advance()
            return .nothing(token.range)
        case .identifier where allowSplit && peek().isPunctuation(.leftBrace):
            return .experiment(try parseExperimentArms())
        case .keyword(.split) where allowSplit:
            advance()
            let id = try expectString("a split id string")
            let key = try parseKey()
            _ = try expect(.leftBrace, "to open the split")
            var variants: [SplitVariant] = []
            while !current.isPunctuation(.rightBrace) {
                let weightToken = current
                guard weightToken.kind == .number else {
                    throw ParseFailure(.expected("a variant weight like `50%` or `}`", found: weightToken))
                }
                advance()
                _ = try expect(.percent, "after the weight")
                _ = try expect(.arrow, "after the weight")
                let destination = try parseDestination(allowSplit: false)
                let weight = Literal(value: .number(Double(weightToken.text) ?? .infinity), text: weightToken.text, range: weightToken.range)
                variants.append(SplitVariant(weight: weight, destination: destination, range: span(from: weightToken.range)))
            }
            advance()
            return .split(SplitDestination(id: id.value, idRange: id.range, key: key, variants: variants, range: span(from: token.range)))
        case .keyword(.split):
            throw ParseFailure(.nestedSplit(at: token.range))
        default:
            throw ParseFailure(.expected(allowSplit ? "`flow`, `paywall`, `nothing`, `split` or an experiment" : "`flow`, `paywall` or `nothing`", found: token))
        }
    }
}

/// A syntax error that abandons the current declaration.
struct ParseFailure: Error {
    let diagnostic: Diagnostic
    init(_ diagnostic: Diagnostic) { self.diagnostic = diagnostic }
}
