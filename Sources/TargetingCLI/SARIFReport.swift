import TargetingBase

/// Diagnostics as one SARIF 2.1.0 log (`check --format sarif`), for code-scanning services.
///
/// One run whose driver lists a rule per diagnostic code that occurs, sorted by code; each
/// result names its rule, its level, the message (with the help after ` — `) and, where the
/// diagnostic has a place, the file and region, and the fix when the diagnostic carries one. Columns count Unicode scalars, as the
/// diagnostics do, and the run says so (`columnKind`).
enum SARIFReport {
    static let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    static let version = "2.1.0"
    /// The base a relative path is resolved against: the directory the tool ran in, which for
    /// CI is the checkout.
    static let sourceRoot = "%SRCROOT%"

    /// The whole log for `diagnostics`, in their order.
    static func log(_ diagnostics: [Diagnostic]) -> JSONValue {
        let codes = Array(Set(diagnostics.map(\.code))).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var ruleIndex: [String: Int] = [:]
        for (index, code) in codes.enumerated() { ruleIndex[code] = index }
        let rules = codes.map { code in
            JSONValue.object([
                JSONMember(key: "id", value: .string(code)),
                JSONMember(key: "shortDescription", value: .object([JSONMember(key: "text", value: .string(shortDescription(code)))])),
            ])
        }
        let driver = JSONValue.object([
            JSONMember(key: "name", value: .string("targeting")),
            JSONMember(key: "semanticVersion", value: .string(PackageVersion.text)),
            JSONMember(key: "rules", value: .array(rules)),
        ])
        let run = JSONValue.object([
            JSONMember(key: "tool", value: .object([JSONMember(key: "driver", value: driver)])),
            JSONMember(key: "columnKind", value: .string("unicodeCodePoints")),
            JSONMember(key: "results", value: .array(diagnostics.map { result($0, ruleIndex: ruleIndex[$0.code]!) })),
        ])
        return .object([
            JSONMember(key: "$schema", value: .string(schema)),
            JSONMember(key: "version", value: .string(version)),
            JSONMember(key: "runs", value: .array([run])),
        ])
    }

    /// A rule's short description, from its code: `unknown-segment` reads "unknown segment".
    static func shortDescription(_ code: String) -> String {
        code.split(separator: "-").joined(separator: " ")
    }

    /// SARIF's name for a severity.
    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    /// The message, with the help (if any) after ` — `.
    static func messageText(_ diagnostic: Diagnostic) -> String {
        diagnostic.message + (diagnostic.help.map { " — \($0)" } ?? "")
    }

    /// One result: rule, level, message and, unless the diagnostic has no file, its location.
    static func result(_ diagnostic: Diagnostic, ruleIndex: Int) -> JSONValue {
        var members = [
            JSONMember(key: "ruleId", value: .string(diagnostic.code)),
            JSONMember(key: "ruleIndex", value: .number(Double(ruleIndex))),
            JSONMember(key: "level", value: .string(level(diagnostic.severity))),
            JSONMember(key: "message", value: .object([JSONMember(key: "text", value: .string(messageText(diagnostic)))])),
        ]
        if let location = location(diagnostic) {
            members.append(JSONMember(key: "locations", value: .array([location])))
        }
        if let fix = diagnostic.fix, diagnostic.place == .span, !fix.range.file.isEmpty {
            members.append(JSONMember(key: "fixes", value: .array([self.fix(fix, description: diagnostic.help)])))
        }
        return .object(members)
    }

    /// A proposed fix: one replacement of the fix's region in its file.
    static func fix(_ fix: Fix, description: String?) -> JSONValue {
        let region = JSONValue.object([
            JSONMember(key: "startLine", value: .number(Double(fix.range.start.line))),
            JSONMember(key: "startColumn", value: .number(Double(fix.range.start.column))),
            JSONMember(key: "endLine", value: .number(Double(fix.range.end.line))),
            JSONMember(key: "endColumn", value: .number(Double(fix.range.end.column))),
        ])
        let replacement = JSONValue.object([
            JSONMember(key: "deletedRegion", value: region),
            JSONMember(key: "insertedContent", value: .object([JSONMember(key: "text", value: .string(fix.replacement))])),
        ])
        let change = JSONValue.object([
            JSONMember(key: "artifactLocation", value: artifactLocation(fix.range.file)),
            JSONMember(key: "replacements", value: .array([replacement])),
        ])
        var members: [JSONMember] = []
        if let description { members.append(JSONMember(key: "description", value: .object([JSONMember(key: "text", value: .string(description))]))) }
        members.append(JSONMember(key: "artifactChanges", value: .array([change])))
        return .object(members)
    }

    /// The physical location: the file, and the region as far as the diagnostic's place knows
    /// it (a span: start and end; a line: the line; a whole file: no region). Nil for a
    /// diagnostic with no place in a file.
    static func location(_ diagnostic: Diagnostic) -> JSONValue? {
        let range = diagnostic.range
        guard !range.file.isEmpty else { return nil }
        var region: [JSONMember] = []
        switch diagnostic.place {
        case .none: return nil
        case .file: break
        case .line:
            region = [JSONMember(key: "startLine", value: .number(Double(range.start.line)))]
        case .span:
            region = [
                JSONMember(key: "startLine", value: .number(Double(range.start.line))),
                JSONMember(key: "startColumn", value: .number(Double(range.start.column))),
            ]
            if (range.end.line, range.end.column) >= (range.start.line, range.start.column) {
                region += [
                    JSONMember(key: "endLine", value: .number(Double(range.end.line))),
                    JSONMember(key: "endColumn", value: .number(Double(range.end.column))),
                ]
            }
        }
        var physical = [JSONMember(key: "artifactLocation", value: artifactLocation(range.file))]
        if !region.isEmpty { physical.append(JSONMember(key: "region", value: .object(region))) }
        return .object([JSONMember(key: "physicalLocation", value: .object(physical))])
    }

    /// The artifact location of a path as given: a relative path stays relative to
    /// `%SRCROOT%`; an absolute one becomes a `file://` URI.
    static func artifactLocation(_ path: String) -> JSONValue {
        if path.hasPrefix("/") {
            return .object([JSONMember(key: "uri", value: .string("file://" + URIPath.encoded(path)))])
        }
        return .object([
            JSONMember(key: "uri", value: .string(URIPath.encoded(path))),
            JSONMember(key: "uriBaseId", value: .string(sourceRoot)),
        ])
    }
}
