import TargetingBase

/// The forms of experiments across placements: the holdout, experiment rows and `by KEY`.
///
/// `by` and `except` are words only in these places, so an attribute or placement may still
/// be called `by` or `except`.
extension Parser {
    /// `experiment NAME [by KEY] [sticky DURATION] { WEIGHT% VARIANT … }`.
    mutating func parseExperiment() throws -> ExperimentDeclaration {
        let start = advance().range
        let name = try parseName("an experiment name")
        let key = try parseKey()
        var sticky: StickyDuration?
        if current.isIdentifier(Parser.stickyWord) {
            advance()
            let duration = current
            guard duration.kind == .duration else {
                throw ParseFailure(.expected("a duration like `90d` after `sticky`", found: duration))
            }
            advance()
            guard let ms = Parser.durationMilliseconds(duration.text) else {
                throw ParseFailure(.invalidDuration(duration.text, at: duration.range))
            }
            sticky = StickyDuration(text: duration.text, milliseconds: ms, range: duration.range)
        }
        _ = try expect(.leftBrace, "to open the experiment")
        var variants: [ExperimentVariant] = []
        while !current.isPunctuation(.rightBrace) {
            let weight = try parseWeight(what: "a variant weight like `50%` or `}`")
            let variant = try parseName("a variant name")
            variants.append(ExperimentVariant(weight: weight, name: variant, range: span(from: weight.range)))
        }
        advance()
        return ExperimentDeclaration(name: name, key: key, sticky: sticky, variants: variants, range: span(from: start))
    }

    /// The word after an experiment's name (and key) that makes its assignments stick.
    static let stickyWord = "sticky"

    /// `holdout NAME WEIGHT% [by KEY] [except PLACEMENT, …]`.
    mutating func parseHoldout() throws -> HoldoutDeclaration {
        let start = advance().range
        let name = try parseName("a holdout name")
        let weight = try parseWeight(what: "a holdout weight like `5%`")
        let key = try parseKey()
        var excepted: [Identifier] = []
        if current.kind == .identifier, current.text == "except" {
            advance()
            excepted.append(try parseName("a placement name after `except`"))
            while current.isPunctuation(.comma) {
                advance()
                excepted.append(try parseName("a placement name after `,`"))
            }
        }
        return HoldoutDeclaration(name: name, weight: weight, key: key, excepted: excepted, range: span(from: start))
    }

    /// Whether the token at `index` begins a layer: the word `layer`, a name, then `by` or `{`.
    static func beginsLayer(at index: Int, in tokens: [Token]) -> Bool {
        guard index + 2 < tokens.count, tokens[index].isIdentifier(LayerDeclaration.word), tokens[index + 1].kind == .identifier else { return false }
        let next = tokens[index + 2]
        return next.isPunctuation(.leftBrace) || next.isIdentifier("by")
    }

    /// `layer NAME [by KEY] { WEIGHT% EXPERIMENT … }`.
    mutating func parseLayer() throws -> LayerDeclaration {
        let start = advance().range
        let name = try parseName("a layer name")
        let key = try parseKey()
        _ = try expect(.leftBrace, "to open the layer")
        var members: [LayerMember] = []
        while !current.isPunctuation(.rightBrace) {
            let weight = try parseWeight(what: "an experiment's share like `40%` or `}`")
            let experiment = try parseName("an experiment name")
            members.append(LayerMember(weight: weight, experiment: experiment, range: span(from: weight.range)))
        }
        advance()
        return LayerDeclaration(name: name, key: key, members: members, range: span(from: start))
    }

    /// `placement P -> OUTCOME` or `placement P -> [OUTCOME, …]`, from `placement`.
    mutating func parsePrerequisite() throws -> Prerequisite {
        let start = advance().range
        let placement = try parseName("a placement name after `placement`")
        _ = try expect(.arrow, "after the placement name")
        var outcomes: [PrerequisiteOutcome] = []
        let isList = current.isPunctuation(.leftBracket)
        if isList {
            advance()
            repeat {
                if !outcomes.isEmpty { advance() }
                outcomes.append(try parsePrerequisiteOutcome())
            } while current.isPunctuation(.comma)
            _ = try expect(.rightBracket, "to close the list of decisions")
        } else {
            outcomes.append(try parsePrerequisiteOutcome())
        }
        return Prerequisite(placement: placement, outcomes: outcomes, isList: isList, range: span(from: start))
    }

    /// One decision of a prerequisite: `flow "ID"`, `paywall "ID"`, `nothing`, `no match` or
    /// `EXPERIMENT.VARIANT`.
    mutating func parsePrerequisiteOutcome() throws -> PrerequisiteOutcome {
        let token = current
        switch token.kind {
        case .keyword(.flow), .keyword(.paywall), .keyword(.nothing):
            return .destination(try parseDestination(allowSplit: false))
        case .identifier where token.text == "no" && peek().isIdentifier("match"):
            advance()
            advance()
            return .noMatch(span(from: token.range))
        case .identifier:
            let parts = token.text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ParseFailure(.expected("`flow`, `paywall`, `nothing`, `no match` or `EXPERIMENT.VARIANT`", found: token))
            }
            advance()
            let start = token.range.start
            let dot = SourcePosition(offset: start.offset + parts[0].utf8.count, line: start.line, column: start.column + parts[0].unicodeScalars.count)
            let afterDot = SourcePosition(offset: dot.offset + 1, line: dot.line, column: dot.column + 1)
            let experiment = Identifier(text: String(parts[0]), range: SourceRange(file: token.range.file, start: start, end: dot))
            let variant = Identifier(text: String(parts[1]), range: SourceRange(file: token.range.file, start: afterDot, end: token.range.end))
            return .variant(experiment: experiment, variant: variant)
        default:
            throw ParseFailure(.expected("`flow`, `paywall`, `nothing`, `no match` or `EXPERIMENT.VARIANT`", found: token))
        }
    }

    /// An optional `by KEY`.
    mutating func parseKey() throws -> AttributeReference? {
        guard current.kind == .identifier, current.text == "by" else { return nil }
        advance()
        return try parseAttributeName(context: "after `by`")
    }

    /// `NUMBER %`, as a number literal spanning the number.
    mutating func parseWeight(what: String) throws -> Literal {
        let token = current
        guard token.kind == .number else { throw ParseFailure(.expected(what, found: token)) }
        advance()
        _ = try expect(.percent, "after the weight")
        return Literal(value: .number(Double(token.text) ?? .infinity), text: token.text, range: token.range)
    }

    /// `EXPERIMENT { VARIANT -> DESTINATION … }` on a placement row.
    mutating func parseExperimentArms() throws -> ExperimentDestination {
        let start = current.range
        let experiment = try parseName("an experiment name")
        _ = try expect(.leftBrace, "to open the experiment's variants")
        var arms: [ExperimentArm] = []
        while !current.isPunctuation(.rightBrace) {
            guard current.kind == .identifier else {
                throw ParseFailure(.expected("a variant name or `}`", found: current))
            }
            let variant = try parseName("a variant name")
            _ = try expect(.arrow, "after the variant name")
            let destination = try parseDestination(allowSplit: false)
            arms.append(ExperimentArm(variant: variant, destination: destination, range: span(from: variant.range)))
        }
        advance()
        return ExperimentDestination(experiment: experiment, arms: arms, range: span(from: start))
    }
}
