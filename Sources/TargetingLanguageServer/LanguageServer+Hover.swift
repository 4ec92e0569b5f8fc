import TargetingAnalysis
import TargetingBase
import TargetingProfiles
import TargetingSyntax

/// `textDocument/hover`: what the name under the cursor is.
///
/// - a segment or audience: its expression, and where it is declared;
/// - an audience in a placement row: also the row's destination;
/// - an attribute: its type, its allowed values, and where it is declared (or that it is a
///   built-in field, or undeclared and typed from its comparisons);
/// - a placement: its rows (and whether the holdout covers it); a split: its variants;
/// - an experiment, a variant or the holdout: see `describeExperiment` and the rest;
/// - `now` or `now ± duration`: the instant it means at the current time;
/// - the pattern of `matches`, or the word `matches`: an example value it accepts (see
///   `patternHover`).
extension LanguageServer {
    func hover(_ request: DocumentRequest) -> JSONValue {
        guard let offset = request.offset else { return .null }
        if let (text, range) = nowHover(request, offset) { return LanguageServer.hover(text, range, request) }
        if let (text, range) = patternHover(request, offset) { return LanguageServer.hover(text, range, request) }
        guard let occurrence = request.analysis.symbols.occurrence(in: request.path, at: offset),
              let text = describe(occurrence, request) else { return .null }
        return LanguageServer.hover(text, occurrence.range, request)
    }

    static func hover(_ markdown: String, _ range: SourceRange, _ request: DocumentRequest) -> JSONValue {
        .object(["contents": .object(["kind": .string("markdown"), "value": .string(markdown)]), "range": request.lines.json(range)])
    }

    /// Where a declaration is, as `file:line`.
    static func place(_ range: SourceRange) -> String {
        let file = range.file.split(separator: "/").last.map(String.init) ?? range.file
        return "\(file):\(range.start.line)"
    }

    private func describe(_ occurrence: SymbolIndex.Occurrence, _ request: DocumentRequest) -> String? {
        let files = request.analysis.ruleFiles
        func code(_ text: String) -> String { LanguageServer.code(text) }
        switch occurrence.kind {
        case .segment, .audience:
            let keyword = occurrence.kind == .segment ? "segment" : "audience"
            let declarations = files.flatMap(\.declarations).compactMap { declaration -> NamedExpression? in
                switch declaration {
                case .segment(let d) where occurrence.kind == .segment && d.name.text == occurrence.name: d
                case .audience(let d) where occurrence.kind == .audience && d.name.text == occurrence.name: d
                case .segment, .audience, .attribute, .input, .placement, .experiment, .holdout, .layer: nil
                }
            }
            guard let declaration = declarations.first else {
                return "unknown \(keyword) `\(occurrence.name)`"
            }
            var text = code("\(keyword) \(declaration.name.text) = \(declaration.expression.text)") + "\n\ndeclared at \(LanguageServer.place(declaration.name.range))"
            if occurrence.kind == .audience, let row = placementRow(at: occurrence.range, in: files) {
                text += "\n\nin placement `\(row.placement)`: `\(row.row.audience.name)` → `\(row.row.destination)`"
                if let reach = reachability(of: occurrence.range, placement: row.placement, request) { text += "\n\n" + reach }
            }
            return text
        case .attribute:
            return describeAttribute(occurrence.name, request)
        case .history:
            return LanguageServer.describeHistory(occurrence.name)
        case .placement:
            guard let placement = files.flatMap(\.declarations).compactMap({ declaration -> PlacementDeclaration? in
                if case .placement(let d) = declaration, d.name.text == occurrence.name { return d }
                return nil
            }).first else { return "unknown placement `\(occurrence.name)`" }
            let rows = placement.rows.map { "  \($0.audience.name) -> \($0.destination)" }.joined(separator: "\n")
            var text = code("placement \(placement.name.text) {\n\(rows)\n}") + "\n\ndeclared at \(LanguageServer.place(placement.name.range))"
            if let holdout = LanguageServer.holdoutLine(for: placement.name.text, in: files) { text += "\n\n" + holdout }
            return text
        case .split:
            for file in files {
                for case .placement(let placement) in file.declarations {
                    for row in placement.rows {
                        guard case .split(let split) = row.destination, split.id == occurrence.name else { continue }
                        let variants = split.variants.map { "  \($0.weight.text)% -> \($0.destination)" }.joined(separator: "\n")
                        return code("split \"\(split.id)\" {\n\(variants)\n}") + "\n\nin placement `\(placement.name.text)`, row `\(row.audience.name)`"
                    }
                }
            }
            return "split `\(occurrence.name)`"
        case .experiment:
            return describeExperiment(occurrence.name, request)
        case .variant:
            return describeVariant(occurrence, request)
        case .holdout:
            return describeHoldout(occurrence.name, request)
        case .layer:
            for file in files {
                for case .layer(let layer) in file.declarations where layer.name.text == occurrence.name {
                    var start = 0
                    let shares = layer.members.map { member -> String in
                        defer { start += member.weightValue }
                        return "  \(member.weight.text)% \(member.experiment.text)    # buckets \(start)–\(start + member.weightValue - 1)"
                    }.joined(separator: "\n")
                    let key = layer.key.map { " by " + $0.displayName } ?? ""
                    return code("layer \(layer.name.text)\(key) {\n\(shares)\n}")
                        + "\n\none draw per profile: each experiment enters only the profiles its share draws"
                }
            }
            return "unknown layer `\(occurrence.name)`"
        }
    }

    /// What a history subject reads, from its text as written (`shown p in 7d`, `last shown p`).
    static func describeHistory(_ written: String) -> String {
        let words = written.split(separator: " ").map(String.init)
        if words.first == "last", words.count >= 3 {
            return "`\(written)`: date, the latest instant placement `\(words[2])` was shown (its last 100 showings are kept); "
                + "not set when it never was, so `is not set` is true for a new user"
        }
        guard words.count >= 2 else { return "`\(written)`" }
        let window = words.count >= 4 ? "in the rolling window (now − \(words[3]), now]" : "in every kept showing (the last 100)"
        return "`\(written)`: number, how many times placement `\(words[1])` was shown \(window); 0 without history, "
            + "compared with `==`, `!=`, `<`, `<=`, `>` or `>=` and a whole number from 0 to 100"
    }

    /// The type, allowed values and declaration of an attribute.
    func describeAttribute(_ name: String, _ request: DocumentRequest) -> String {
        let target = AttributeTarget(written: name) ?? .custom(name)
        let checked = request.analysis.rules.checked?.attributeTypes[SubjectTarget(target)]
        switch target {
        case .builtin(let field):
            guard let builtin = BuiltinField.all[field] else { return "unknown built-in field `\(name)`" }
            var text = "`\(name)`: \(builtin.type.rawValue), a built-in profile field"
            if let allowed = builtin.allowed { text += "\n\none of " + allowed.map { "`\"\($0)\"`" }.joined(separator: ", ") }
            if let derived = builtin.derived {
                text += "\n\nderived from `\(AttributeTarget.builtin(derived.source).written)` at the time of evaluation, never stored"
            }
            return text
        case .custom(let key):
            let declaration = request.analysis.ruleFiles.flatMap(\.declarations).compactMap { declaration -> AttributeDeclaration? in
                if case .attribute(let d) = declaration, d.name.target == .custom(key) { return d }
                return nil
            }.first
            var text = "`\(key)`: "
            if let declaration {
                text += declaration.type.rawValue + ", a custom attribute"
                if let allowed = declaration.allowed?.items {
                    text += "\n\n\(declaration.type == .set ? "set of" : "one of") " + allowed.map { "`\($0.text)`" }.joined(separator: ", ")
                }
                text += "\n\ndeclared at \(LanguageServer.place(declaration.range))"
            } else if let type = checked?.type {
                text += "\(type.rawValue), a custom attribute, not declared (the type comes from the literals it is compared with)"
            } else {
                text += "a custom attribute, not declared"
            }
            return text
        }
    }

    /// The placement row whose audience is written at `range`.
    /// Whether some profile reaches the row whose audience is at `range`, at the request's
    /// instant, with a verified example (as `targeting overlap` answers it).
    private func reachability(of range: SourceRange, placement name: String, _ request: DocumentRequest) -> String? {
        guard let program = request.analysis.rules.program, let index = program.placementIndex(named: name),
              let position = program.placements[index].rows.firstIndex(where: { $0.source.audience.range == range }) else { return nil }
        let row = OverlapReport.reachability(program, placement: index, row: position, now: request.now)
        switch row.reachable {
        case true?: return "reachable at \(Timestamp.format(request.now)), e.g. `\(row.witness.map(JSONWriter.write) ?? "")`"
        case false?: return "**never decides** at \(Timestamp.format(request.now)): every profile it matches is taken by the rows above, or it matches none"
        case nil: return "whether a profile reaches this row is not settled (the search ran out of budget)"
        }
    }

    private func placementRow(at range: SourceRange, in files: [RuleFile]) -> (placement: String, row: PlacementRow)? {
        for file in files where file.source.path == range.file {
            for case .placement(let placement) in file.declarations {
                for row in placement.rows where row.audience.range == range { return (placement.name.text, row) }
            }
        }
        return nil
    }

    /// `now`, as a comparison's subject or an operand (`now - 30d`), under the cursor.
    private func nowHover(_ request: DocumentRequest, _ offset: Int) -> (String, SourceRange)? {
        guard let file = request.analysis.ruleFile(request.path) else { return nil }
        func holds(_ range: SourceRange) -> Bool { range.start.offset <= offset && offset <= range.end.offset }
        for declaration in file.declarations {
            guard case .segment(let d) = declaration, holds(d.range) else { continue }
            for comparison in d.expression.comparisons where holds(comparison.range) {
                if case .now(let range) = comparison.subject, holds(range) {
                    return ("`now`: the time of evaluation; now it is \(Timestamp.format(request.now))", range)
                }
                for literal in comparison.literals where holds(literal.range) {
                    if case .now(let shift) = literal.value {
                        return ("`\(literal.text)`: \(Timestamp.format(Timestamp.shifted(request.now, by: shift))) at the current time", literal.range)
                    }
                    if case .date(let ms?) = literal.value {
                        return ("`\(literal.text)`: \(Timestamp.format(ms))", literal.range)
                    }
                }
            }
        }
        return nil
    }
}
