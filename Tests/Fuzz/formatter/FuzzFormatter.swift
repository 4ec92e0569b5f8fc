import TargetingBase
import TargetingFormatting
import TargetingFuzzSupport
import TargetingSyntax

/// `Formatter.format` on every input that parses: the output parses to an equal syntax tree,
/// keeps every comment in order, and formats to itself (STYLE habit 9). Checked here from the
/// outside, not through the formatter's own soundness check, which must never refuse a file
/// that parses.
///
/// The first byte chooses the input: bit 0 a tests file instead of a rules file, bit 1 the
/// remaining bytes as raw text instead of grammar choices.
@main
enum FuzzFormatter {
    static func main() {
        FuzzDriver.run { data, size in
            let bytes = FuzzDriver.bytes(data, size)
            guard let mode = bytes.first else { return 0 }
            let tests = mode & 1 == 1
            let rest = Array(bytes.dropFirst())
            let path = tests ? "fuzz.tests" : "fuzz.rules"
            let source: SourceFile
            if mode & 2 == 2 {
                source = SourceFile(path: path, bytes: rest)
            } else {
                var grammar = RulesGrammar(rest)
                source = SourceFile(path: path, text: tests ? grammar.testsText() : grammar.rulesText())
            }
            FuzzFormatter.check(source)
            return 0
        }
    }

    /// The tree dump, the comments and whether the file has syntax errors.
    static func parse(_ file: SourceFile) -> (dump: String, comments: [String], errors: Bool) {
        if file.path.hasSuffix(".tests") {
            let (parsed, diagnostics) = Parser.parseTests(file)
            return (SyntaxTreeDump.tests(parsed), parsed.comments.map(commentText), diagnostics.contains(where: \.isError))
        }
        let (parsed, diagnostics) = Parser.parseRules(file)
        return (SyntaxTreeDump.rules(parsed), parsed.comments.map(commentText), diagnostics.contains(where: \.isError))
    }

    /// A comment's text without trailing white space (the formatter removes it).
    static func commentText(_ comment: Comment) -> String {
        var text = Substring(comment.text)
        while let last = text.last, last == " " || last == "\t" || last == "\u{0B}" || last == "\u{0C}" { text.removeLast() }
        return String(text)
    }

    static func check(_ source: SourceFile) {
        let original = parse(source)
        let output: String
        switch Formatter.format(source) {
        case .failure(.syntax):
            if !original.errors { fuzzFailure("a file without syntax errors was refused as a syntax error") }
            return
        case .failure(.unsound(let reason)):
            if original.errors { return }
            fuzzFailure("the formatter refused a file that parses: \(reason)\n--- input ---\n\(String(decoding: source.bytes, as: UTF8.self))")
        case .success(let text):
            if original.errors { fuzzFailure("a file with syntax errors was formatted") }
            output = text
        }
        let reformatted = SourceFile(path: source.path, text: output)
        let again = parse(reformatted)
        if again.errors { fuzzFailure("the formatted text does not parse:\n\(output)") }
        if again.dump != original.dump { fuzzFailure("the formatted text parses to another tree:\n\(original.dump)\n---\n\(again.dump)") }
        if again.comments != original.comments { fuzzFailure("the formatted text changes the comments:\n\(original.comments)\n---\n\(again.comments)") }
        switch Formatter.format(reformatted) {
        case .success(let twice):
            if twice != output { fuzzFailure("formatting twice changes the text:\n\(output)\n---\n\(twice)") }
        case .failure(let error):
            fuzzFailure("the formatted text does not format: \(error.message)\n\(output)")
        }
    }
}
