import TargetingBase

extension Parser {
    /// Parses a `.tests` file; the result holds every test that parsed and the diagnostics.
    ///
    /// A syntax error abandons the test it is in and parsing resumes at the next `test`.
    package static func parseTests(_ file: SourceFile) -> (TestFile, [Diagnostic]) {
        let lexed = Lexer.lex(file)
        var parser = Parser(tokens: lexed.tokens, file: file)
        var tests: [TestDeclaration] = []
        while !parser.atEnd {
            let start = parser.index
            do {
                guard parser.current.isKeyword(.test) else { throw ParseFailure(.expectedTest(found: parser.current)) }
                tests.append(try parser.parseTest())
            } catch let error as ParseFailure {
                parser.diagnostics.append(error.diagnostic)
                parser.recoverToTest(from: start)
            } catch {
                parser.recoverToTest(from: start)
            }
        }
        let all = lexed.diagnostics + parser.diagnostics
        return (TestFile(source: file, tests: tests, comments: lexed.comments), all)
    }

    /// Skips to the next `test` keyword after the token at `start`, where the failed test
    /// began (a `test` that cut a broken test short is kept).
    mutating func recoverToTest(from start: Int) {
        depth = 0
        if index == start, !atEnd { advance() }
        while !atEnd, !current.isKeyword(.test) { advance() }
    }

    mutating func parseTest() throws -> TestDeclaration {
        let start = advance().range
        let name = try expectString("a test name string after `test`")
        _ = try expect(.leftBrace, "to open the test")
        var nows: [Literal] = []
        var givens: [Given] = []
        var expectations: [Expectation] = []
        while !current.isPunctuation(.rightBrace) {
            switch current.kind {
            case .keyword(.now):
                advance()
                let token = current
                guard token.kind == .date else {
                    throw ParseFailure(.expected("a date or timestamp after `now` (e.g. `2026-11-29T12:00:00Z`)", found: token))
                }
                advance()
                nows.append(Literal(value: .date(Timestamp.parse(token.text)), text: token.text, range: token.range))
            case .keyword(.given):
                givens.append(try parseGiven())
            case .keyword(.expect):
                expectations.append(try parseExpectation())
            default:
                throw ParseFailure(.expected("`now`, `given`, `expect` or `}`", found: current))
            }
        }
        advance()
        return TestDeclaration(name: name.value, nameRange: name.range, nows: nows, givens: givens,
                               expectations: expectations, range: span(from: start))
    }

    /// `shown PLACEMENT at TIME` or `assigned EXPERIMENT VARIANT at TIME`, when the line begins
    /// with `shown` or `assigned` followed by a name (an attribute named `shown` or `assigned`
    /// is still set with `=`).
    mutating func parseGivenHistory() throws -> GivenLine? {
        let start = current
        if start.isIdentifier(Parser.shownWord), peek().kind == .identifier {
            advance()
            let placement = try parseName("a placement name after `shown`")
            let at = try parseGivenInstant(after: "shown \(placement.text)")
            return .shown(GivenShown(placement: placement, at: at, range: span(from: start.range)))
        }
        if start.isIdentifier(Parser.assignedWord), peek().kind == .identifier {
            advance()
            let experiment = try parseName("an experiment name after `assigned`")
            let variant = try parseName("a variant name after `assigned \(experiment.text)`")
            let at = try parseGivenInstant(after: "assigned \(experiment.text) \(variant.text)")
            return .assigned(GivenAssigned(experiment: experiment, variant: variant, at: at, range: span(from: start.range)))
        }
        return nil
    }

    /// `at TIME` after a history line of `given`: a date, an RFC 3339 instant or `now ± d`.
    mutating func parseGivenInstant(after line: String) throws -> Literal {
        guard current.isIdentifier(Parser.atWord) else { throw ParseFailure(.expected("`at` after `\(line)`", found: current)) }
        advance()
        guard current.kind == .date || current.isKeyword(.now) else {
            throw ParseFailure(.expected("an instant (a date, an RFC 3339 time or `now - 3d`) after `at`", found: current))
        }
        return try parseLiteral()
    }

    /// The word of `assigned EXPERIMENT VARIANT at TIME` in `given`.
    static let assignedWord = "assigned"
    /// The word before the instant of a history line in `given`.
    static let atWord = "at"

    mutating func parseGiven() throws -> Given {
        let start = advance().range
        switch current.kind {
        case .punctuation(.leftBrace):
            advance()
            var assignments: [GivenLine] = []
            while !current.isPunctuation(.rightBrace) {
                if let line = try parseGivenHistory() {
                    assignments.append(line)
                    continue
                }
                let target = try parseAttributeName(context: "or `}` in `given`")
                _ = try expect(.equal, "after `\(target.displayName)`")
                let value: GivenValue = current.isPunctuation(.leftBracket) ? .list(try parseList()) : .literal(try parseLiteral())
                assignments.append(.attribute(GivenAssignment(target: target, value: value, range: span(from: target.range))))
            }
            advance()
            return .assignments(assignments, span(from: start))
        case .keyword(.events):
            advance()
            let path = try expectString("a file path string after `given events`")
            return .events(GivenPath(path: path.value, range: path.range), span(from: start))
        case .keyword(.profile):
            advance()
            let path = try expectString("a file path string after `given profile`")
            return .profile(GivenPath(path: path.value, range: path.range), span(from: start))
        default:
            throw ParseFailure(.expected("`{`, `events` or `profile` after `given`", found: current))
        }
    }

    mutating func parseExpectation() throws -> Expectation {
        let start = advance().range
        var negation: Token?
        if current.isKeyword(.not) { negation = advance() }
        if current.isIdentifier("held"), peek().isIdentifier("out") {
            let held = advance().range
            advance()
            return .heldOut(negated: negation != nil, words: span(from: held), span(from: start))
        }
        let name = try parseName("a placement, audience or segment name after `expect`")
        guard current.isPunctuation(.arrow) else {
            return .membership(name, negated: negation != nil, span(from: start))
        }
        if let negation { throw ParseFailure(.negatedPlacementExpectation(at: negation.range)) }
        advance()
        if current.isKeyword(.split) { throw ParseFailure(.splitInExpectation(at: current.range)) }
        var expected: PlacementExpectation
        if current.isIdentifier("no") {
            let no = advance().range
            guard current.isIdentifier("match") else { throw ParseFailure(.expected("`match` after `no`", found: current)) }
            advance()
            expected = PlacementExpectation(outcome: .noMatch(span(from: no)))
        } else {
            expected = PlacementExpectation(outcome: .destination(try parseDestination(allowSplit: false)))
        }
        if current.isIdentifier("from") {
            let from = advance()
            if case .noMatch = expected.outcome { throw ParseFailure(.fromWithNoMatch(at: from.range)) }
            if current.isKeyword(.everyone) {
                let everyone = advance()
                expected.audience = Identifier(text: everyone.text, range: everyone.range)
            } else if current.kind == .identifier, current.text.contains(".") {
                expected.variant = try parseExperimentVariant()
            } else {
                expected.audience = try parseName("an audience name or `everyone` after `from`")
            }
        }
        return .placement(name, expected, span(from: start))
    }

    /// `EXPERIMENT.VARIANT`, one name token with one dot between two names.
    mutating func parseExperimentVariant() throws -> PlacementExpectation.Variant {
        let token = advance()
        let parts = token.text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw ParseFailure(.invalidName(token.text, at: token.range))
        }
        let range = token.range
        let dot = range.start.offset + parts[0].utf8.count
        let dotColumn = range.start.column + parts[0].count
        let experiment = SourceRange(file: range.file, start: range.start,
                                     end: SourcePosition(offset: dot, line: range.start.line, column: dotColumn))
        let variant = SourceRange(file: range.file, start: SourcePosition(offset: dot + 1, line: range.start.line, column: dotColumn + 1), end: range.end)
        return PlacementExpectation.Variant(experiment: Identifier(text: String(parts[0]), range: experiment),
                                            variant: Identifier(text: String(parts[1]), range: variant), range: range)
    }
}
