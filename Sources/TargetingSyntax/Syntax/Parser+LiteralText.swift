import TargetingBase

extension Parser {
    /// The literal `text` reads as when it is exactly one literal, with no comment and no
    /// finding of the lexer; nil otherwise. Lets a caller test a rewrite it proposes against the
    /// grammar itself.
    package static func literal(parsing text: String) -> Literal? {
        let file = SourceFile(path: "", text: text)
        let lexed = Lexer.lex(file)
        guard lexed.diagnostics.isEmpty, lexed.comments.isEmpty else { return nil }
        var parser = Parser(tokens: lexed.tokens, file: file)
        guard let literal = try? parser.parseLiteral(), parser.atEnd else { return nil }
        return literal
    }
}
