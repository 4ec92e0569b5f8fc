import Targeting
import TargetingBase
import TargetingSyntax

/// `textDocument/semanticTokens/full`: every token and comment of a rules or tests file,
/// classified, in LSP's relative encoding.
///
/// Keywords (and the words `no match` and `from` of an expectation, `by` and `except` of
/// experiments and the holdout, a row's leading `always`, and the operator word `matches`) are
/// `keyword`; strings `string`; numbers `number`; dates, durations and patterns `regexp`;
/// comments `comment`; operators (`==`, `->`, `=`, `%`, `-`, …) `operator`, while brackets,
/// braces, parentheses, commas and colons are left to the editor's grammar. Names take their
/// kind from the symbol index: attributes `property` (built-in `profile.FIELD`s with
/// `defaultLibrary`), segments `variable`, audiences `class`, placements `namespace`,
/// experiments and the holdout `enum`, variants and split ids `enumMember`; a declaration adds
/// `declaration`. An attribute's type word is `type`, an input's screen and element names
/// (however spelled) `event`; any other name the index does not hold (an unknown name) is
/// `variable`.
extension LanguageServer {
    /// The token types of the legend announced by `initialize`; a token's type is its index.
    static let tokenTypes = SemanticTokenType.allCases.map { "\($0)" }
    /// The token modifiers of the legend; a token's modifiers are a bit set of their indices.
    static let tokenModifiers = ["declaration", "defaultLibrary"]

    /// The semantic tokens of the document, as `{"data": [...]}`.
    ///
    /// A file too large to parse gets none.
    func semanticTokens(_ request: DocumentRequest) -> JSONValue {
        guard request.source.bytes.count <= SourceLoader.maxFileSize else { return .object(["data": .array([])]) }
        let lexer = Lexer.lex(request.source)
        let path = request.path
        var occurrences: [Int: SymbolIndex.Occurrence] = [:]
        for occurrence in request.analysis.symbols.occurrences where occurrence.range.file == path {
            occurrences[occurrence.range.start.offset] = occurrence
        }
        var typeWords: Set<Int> = [], elements: Set<Int> = [], alwaysWords: Set<Int> = [], operatorWords: Set<Int> = []
        for declaration in request.analysis.ruleFile(path)?.declarations ?? [] {
            switch declaration {
            case .attribute(let d):
                typeWords.insert(d.typeRange.start.offset)
            case .input(let d):
                if let screen = d.screen { elements.insert(screen.range.start.offset) }
                elements.insert(d.element.range.start.offset)
            case .placement(let d):
                for row in d.rows { if let always = row.always { alwaysWords.insert(always.start.offset) } }
            case .segment(let d), .audience(let d):
                // An operator written with a word that is not reserved (`matches`).
                for comparison in d.expression.comparisons where comparison.op.words.contains(where: { ComparisonOperator.unreservedWords.contains($0) }) {
                    operatorWords.insert(comparison.operatorRange.start.offset)
                }
            case .layer(let d):
                // `layer` is a word only where it begins a layer: shown as the keyword it is there.
                alwaysWords.insert(d.range.start.offset)
            case .experiment, .holdout:
                break
            }
        }
        let isTests = Workspace.isTests(path)

        var classified: [(start: Int, end: Int, type: SemanticTokenType, modifiers: Int)] = []
        classified.reserveCapacity(lexer.tokens.count + lexer.comments.count)
        for (index, token) in lexer.tokens.enumerated() {
            let start = token.range.start.offset, end = token.range.end.offset
            guard end > start else { continue }
            let occurrence = occurrences[start].flatMap { $0.range.end.offset == end ? $0 : nil }
            var modifiers = occurrence?.isDeclaration == true ? SemanticTokenType.declaration : 0
            let type: SemanticTokenType
            switch token.kind {
            case .keyword:
                type = .keyword
            case _ where elements.contains(start):
                type = .event
            case .identifier where operatorWords.contains(start)
                || (token.operatorWord != nil && index + 1 < lexer.tokens.count && lexer.tokens[index + 1].kind == .pattern):
                // `matches`, like the reserved operator words.
                type = .keyword
            case .identifier, .quotedName:
                if let occurrence {
                    type = SemanticTokenType(occurrence.kind)
                    if occurrence.kind == .attribute, AttributeTarget.isBuiltinSpelling(occurrence.name), occurrence.spelling == .bare {
                        modifiers |= SemanticTokenType.defaultLibrary
                    }
                } else if typeWords.contains(start) {
                    type = .type
                } else if alwaysWords.contains(start) {
                    type = .keyword
                } else if isTests, token.kind == .identifier, ["no", "match", "from"].contains(token.text) {
                    type = .keyword
                } else if !isTests, token.kind == .identifier, ["by", "except"].contains(token.text) {
                    type = .keyword
                } else {
                    type = .variable
                }
            case .string:
                type = occurrence.map { SemanticTokenType($0.kind) } ?? .string
            case .number:
                type = .number
            case .date, .duration, .pattern:
                type = .regexp
            case .punctuation(let punctuation):
                switch punctuation {
                case .leftParen, .rightParen, .leftBracket, .rightBracket, .leftBrace, .rightBrace, .comma, .colon: continue
                default: type = .operator
                }
            case .endOfFile:
                continue
            }
            classified.append((start, end, type, modifiers))
        }
        for comment in lexer.comments where comment.range.end.offset > comment.range.start.offset {
            classified.append((comment.range.start.offset, comment.range.end.offset, .comment, 0))
        }
        classified.sort { $0.start < $1.start }

        var data: [JSONValue] = []
        data.reserveCapacity(classified.count * 5)
        var previous = LSPPosition(line: 0, character: 0)
        for token in classified {
            // A token never spans lines here (strings, names and comments end at a line
            // break), but one that did would be sent a line at a time, as LSP requires.
            let first = request.lines.position(of: token.start), last = request.lines.position(of: token.end)
            for line in first.line...last.line {
                let start = line == first.line ? first : LSPPosition(line: line, character: 0)
                let end = line == last.line ? last : request.lines.position(of: request.lines.lineEnd(line))
                guard end.character > start.character else { continue }
                let deltaLine = start.line - previous.line
                let deltaStart = deltaLine == 0 ? start.character - previous.character : start.character
                data += [.int(deltaLine), .int(deltaStart), .int(end.character - start.character), .int(token.type.rawValue), .int(token.modifiers)]
                previous = start
            }
        }
        return .object(["data": .array(data)])
    }
}

/// A token type of the semantic tokens legend, named as LSP names it; its raw value is its
/// index in `LanguageServer.tokenTypes`.
enum SemanticTokenType: Int, CaseIterable {
    case keyword, string, number, regexp, comment, `operator`, property, variable, `class`, namespace, enumMember, type, event, `enum`

    /// The `declaration` modifier bit.
    static let declaration = 1 << 0
    /// The `defaultLibrary` modifier bit (built-in profile fields).
    static let defaultLibrary = 1 << 1

    /// The type of a name of the rule set.
    init(_ kind: SymbolIndex.Kind) {
        self = switch kind {
        case .attribute: .property
        case .segment: .variable
        case .audience: .class
        case .placement: .namespace
        case .experiment, .holdout, .layer: .enum
        case .variant, .split: .enumMember
        case .history: .keyword
        }
    }
}
