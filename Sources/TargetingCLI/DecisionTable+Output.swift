import TargetingAnalysis
import TargetingBase
import TargetingEngine
import TargetingSyntax

/// `targeting table` in words: the text, Markdown and JSON of a decision table, and its errors.
extension DecisionTable {
    var json: JSONValue {
        .object([
            JSONMember(key: "placement", value: .string(placement)),
            JSONMember(key: "now", value: .string(Timestamp.format(now))),
            JSONMember(key: "by", value: .array(by.map { .string($0.name) })),
            JSONMember(key: "rows", value: .array(rows.map { row in
                var members = [
                    JSONMember(key: "when", value: .object(zip(by, row.when).map { attribute, values in
                        JSONMember(key: attribute.name, value: .array(values.map { $0 ?? .null }))
                    })),
                    JSONMember(key: "destinations", value: .array(row.destinations.map(ChangeProof.json))),
                    JSONMember(key: "depends_on", value: .array(row.dependsOn.map { .string(Self.text($0)) })),
                ]
                if !row.unsettled.isEmpty { members.append(JSONMember(key: "unsettled", value: .array(row.unsettled.map(ChangeProof.json)))) }
                return .object(members)
            })),
        ])
    }

    /// One attribute's values in a row: `any` for the whole domain; for a set, what the
    /// subsets hold (`has "sports"`, `has none of "music", "food"`); else the values joined.
    func shown(_ values: [JSONValue?], of attribute: Attribute, code: Bool) -> String {
        if values.count == attribute.domain.count, attribute.domain.count > 1 { return "any" }
        if let described = describedSubsets(values, of: attribute, code: code) { return described }
        return values.map { value in
            guard let value else { return "not set" }
            let text: String
            switch value {
            case .string(let string): text = string
            case .array(let items): text = "[" + items.compactMap(\.stringValue).joined(separator: ", ") + "]"
            default: text = JSONWriter.write(value)
            }
            return code ? "`\(text)`" : text
        }.joined(separator: code ? ", " : " | ")
    }

    /// A set attribute's subsets as the cubes that cover them, `not set` last; nil for an
    /// attribute that is not a set.
    func describedSubsets(_ values: [JSONValue?], of attribute: Attribute, code: Bool) -> String? {
        guard attribute.domain.contains(where: { if case .array? = $0 { true } else { false } }) else { return nil }
        let universe = Array(Set(attribute.domain.compactMap { $0?.arrayValue?.compactMap(\.stringValue) }.joined()))
        let ordered = attribute.domain.compactMap { $0?.arrayValue?.compactMap(\.stringValue) }.filter { $0.count == 1 }.map { $0[0] }
        let declared = ordered.count == universe.count ? ordered : universe.sorted()
        let subsets = values.compactMap { $0?.arrayValue.map { Set($0.compactMap(\.stringValue)) } }
        var parts: [String] = []
        if !subsets.isEmpty {
            guard let cubes = SubsetCover.cover(subsets, of: declared) else { return nil }
            func quoted(_ value: String) -> String { code ? "`\(value)`" : JSONWriter.write(.string(value)) }
            parts = cubes.map { cube in
                var words: [String] = []
                if !cube.has.isEmpty { words.append("has " + cube.has.map(quoted).joined(separator: " and ")) }
                if cube.lacks.count == 1 { words.append("has no " + quoted(cube.lacks[0])) }
                if cube.lacks.count > 1 { words.append("has none of " + cube.lacks.map(quoted).joined(separator: ", ")) }
                return words.isEmpty ? "any set" : words.joined(separator: " and ")
            }
        }
        if values.contains(where: { $0 == nil }) { parts.append("not set") }
        return parts.joined(separator: code ? "; " : " | ")
    }

    func destinationText(_ row: Row, code: Bool) -> String {
        var parts = row.destinations.map { ChangeProof.text($0) }.map { code ? "`\($0)`" : $0 }
        parts += row.unsettled.map { "\(code ? "`\(ChangeProof.text($0))`" : ChangeProof.text($0)) (not settled)" }
        return parts.isEmpty ? "(none settled)" : parts.joined(separator: code ? ", " : " | ")
    }

    var text: String {
        var out = "placement \(placement) at \(Timestamp.format(now)): \(combinations) combination\(combinations == 1 ? "" : "s") in \(rows.count) row\(rows.count == 1 ? "" : "s")\n"
        if by.isEmpty { out += "(no declared `one of` or `bool` attribute is read: name attributes with --by)\n" }
        let headers = by.isEmpty ? ["every profile"] : by.map(\.name)
        let cells = rows.map { row in by.isEmpty ? ["every profile"] : zip(by, row.when).map { shown($1, of: $0, code: false) } }
        let widths = headers.indices.map { column in ([headers[column]] + cells.map { $0[column] }).map(\.count).max() ?? 0 }
        func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        out += (headers.indices.map { pad(headers[$0], widths[$0]) } + ["-> destinations"]).joined(separator: "  ") + "\n"
        for (row, values) in zip(rows, cells) {
            var line = (values.indices.map { pad(values[$0], widths[$0]) } + ["-> " + destinationText(row, code: false)]).joined(separator: "  ")
            if !row.dependsOn.isEmpty { line += "  (depends on " + row.dependsOn.map(Self.shown).joined(separator: ", ") + ")" }
            out += line + "\n"
        }
        return out
    }

    /// One entry of `depends_on` in JSON: a comparison as written (`profile.age >= 18`), a draw
    /// (`split `s``, `experiment `e``, `holdout `h``) or a key (`key `profile.id``).
    static func text(_ dependency: Dependency) -> String {
        switch dependency {
        case .comparison(let comparison): comparison.text()
        case .key(.builtin(let field)): "key `profile.\(field)`"
        case .key(.custom(let key)): "key `\(key)`"
        case .key(.shownCount(let placements, _)), .key(.lastShown(let placements)): "key `\(SubjectTarget.placementList(placements))`"
        case .split(let id): "split `\(id)`"
        case .experiment(let name): "experiment `\(name)`"
        case .holdout(let name): "holdout `\(name)`"
        case .layer(let name): "layer `\(name)`"
        case .assignment(let name): "assignment of `\(name)`"
        }
    }

    /// One entry of `depends on` in text and Markdown: a comparison in backticks, the rest as in JSON.
    static func shown(_ dependency: Dependency) -> String {
        if case .comparison = dependency { return "`\(text(dependency))`" }
        return text(dependency)
    }

    /// The message of an `error:` line for a table that cannot be built, naming `--by`.
    static func message(_ error: DecisionTableError) -> String {
        switch error {
        case .tooManyCombinations(let count, let limit):
            return "--by gives \(count) combinations; a table holds at most \(limit): name fewer attributes with --by"
        case .notRead(let name):
            return "the placement does not read `\(name)`"
        case .tooManySetValues(let name, let count, let limit):
            return "`\(name)` declares \(count) values, too many for every subset (at most \(limit))"
        case .notFinite(let name, let type):
            let shown = type.map { $0 == .string || $0 == .set ? "a \($0.rawValue) without declared values" : "a \($0.rawValue)" } ?? "of no known type"
            return "`\(name)` is \(shown); --by takes `one of` strings, `bool` and `set of` attributes"
        }
    }

    var markdown: String {
        var out = "| " + (by.map { "`\($0.name)`" } + ["destinations", "depends on"]).joined(separator: " | ") + " |\n"
        out += "|" + String(repeating: "---|", count: by.count + 2) + "\n"
        for row in rows {
            let values = zip(by, row.when).map { shown($1, of: $0, code: true) }
            let depends = row.dependsOn.map(Self.shown).joined(separator: ", ")
            out += "| " + (values + [destinationText(row, code: true), depends]).map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
        }
        return out
    }
}
