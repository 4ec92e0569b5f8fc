import TargetingBase

extension Formatter {
    /// Why `output` must not replace the file `original`, or nil when it is sound: it parses
    /// without errors to an equal syntax tree (positions aside), keeps every comment in order,
    /// and formats to itself.
    static func soundnessProblem(original: Parsed, output: String) -> String? {
        let reformatted = SourceFile(path: original.source.path, text: output)
        let reparsed: Parsed
        switch parse(reformatted) {
        case .failure(let error):
            let detail = error.diagnostics.first.map { ": \($0.range.start.line):\($0.range.start.column): \($0.message)" } ?? ""
            return "the formatted text does not parse" + detail
        case .success(let value):
            reparsed = value
        }
        if reparsed.dump != original.dump {
            return "the formatted text does not parse to the same rules"
        }
        let before = original.comments.map(commentText)
        let after = reparsed.comments.map(commentText)
        if before != after {
            if let lost = before.first(where: { !after.contains($0) }) {
                return "the formatted text loses the comment `\(lost)`"
            }
            return "the formatted text changes the order of the comments"
        }
        if render(reparsed) != output {
            return "formatting the formatted text changes it again"
        }
        return nil
    }
}
