import TargetingBase

/// Dates and versions parsed in SQL exactly as `Timestamp.parse` and
/// `SemanticVersion(parsing:)` do, with regular expressions and integer arithmetic only, so that
/// no input ever raises an error.
extension SQLSlotReader {
    /// Parses the text column `text` as a date into `column` (Unix ms, NULL when unparsable).
    ///
    /// The common forms, `YYYY-MM-DD` and `YYYY-MM-DDTHH:MM:SS[.fff]Z`, are taken apart by
    /// position (regular expressions cost far more than a string function in both engines);
    /// anything else is matched. Spark SQL and DuckDB tell the form by the text with every ASCII digit made
    /// `0` and takes each part with `substr`. PostgreSQL tells it by `hasPostgresForm` and reads
    /// all its digits as one number, `<prefix>dn` (`YYYYMMDDHHMMSSfff`), whose parts are
    /// integer arithmetic: its `translate` and `substr` measure multibyte text character by
    /// character, which was most of the cost of reading a date.
    func readDate(text: String, prefix c: String, column: String, into stages: inout SQLStages) {
        let pattern = "^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:[.]([0-9]+))?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2})))?" + dialect.endAnchor
        let m = "\(c)dm", match = SQLExpression.column(m)
        let matched = SQLExpression.groups(.column(text), pattern: pattern, count: 10)
        // PostgreSQL's column of the common forms' digits, `<prefix>dn`; none in Spark SQL.
        let digitsColumn: String?
        switch dialect {
        case .postgres:
            let digits = "\(c)dn"
            stages.add(SQLStage.view, digits, SQLSlotReader.postgresDateDigits(text))
            stages.add(SQLStage.view, m, sql(.caseWhen(subject: nil, [.init(.isNull(.column(digits), negated: false), matched)], otherwise: nil)))
            digitsColumn = digits
        case .spark, .duckdb, .clickhouse:
            stages.add(SQLStage.view, m, sql(positionalDateMatch(.column(text), matched: matched)))
            digitsColumn = nil
        }
        /// A part: `fromDigits` of the digits' number where there is one (PostgreSQL's integer
        /// arithmetic on its own column), else `fromMatch`.
        func part(_ fromDigits: (String) -> String, _ fromMatch: SQLExpression) -> String {
            sql(digitsColumn.map { .caseWhen(subject: nil, [.init(.isNull(.column($0), negated: true), .raw(fromDigits($0)))], otherwise: fromMatch) } ?? fromMatch)
        }
        func number(_ index: Int) -> SQLExpression { .coalesce([.cast(.element(match, index), .bigint), .integer(0)]) }
        let names = ["y", "mo", "d", "h", "mi", "se"]
        for (offset, name) in names.enumerated() {
            // The number's digits from the left: 4 of the year, then 2 of each part, then 3 of milliseconds.
            let below = 3 + 2 * (names.count - 1 - offset)
            let scale = "1" + String(repeating: "0", count: below)
            stages.add(SQLStage.parts, "\(c)d\(name)", part({ offset == 0 ? "\($0) / \(scale)" : "\($0) / \(scale) % 100" }, number(offset + 1)))
        }
        let fraction = SQLExpression.element(match, 7)
        let millis = SQLExpression.cast(.call("rpad", [.call("substr", [fraction, .integer(1), .integer(3)]), .integer(3), .string("0")]), .bigint)
        stages.add(SQLStage.parts, "\(c)dfr", part({ "\($0) % 1000" }, .caseWhen(subject: nil, [.init(.isNull(fraction, negated: false), .integer(0))], otherwise: millis)))
        stages.add(SQLStage.parts, "\(c)doh", part({ _ in "0" }, number(9)))
        stages.add(SQLStage.parts, "\(c)dom", part({ _ in "0" }, number(10)))
        let negative = SQLExpression.compare(.element(match, 8), .equal, .string("-"))
        stages.add(SQLStage.parts, "\(c)dsg", part({ _ in "1" }, .caseWhen(subject: nil, [.init(negative, .integer(-1))], otherwise: .integer(1))))
        let parsed = SQLExpression.groupsMatched(match)
        let ok = digitsColumn.map { SQLExpression.or([.isNull(.column($0), negated: true), parsed]) } ?? parsed
        stages.add(SQLStage.parts, "\(c)dok", sql(.parenthesized(ok)))

        let parts = SQLInstantParts.columns(prefix: "\(c)d")
        stages.add(SQLStage.value, column, sql(parts.milliseconds))
    }

    /// The common forms of a date, `0` standing for an ASCII digit.
    static let commonDateForms = ["0000-00-00", "0000-00-00T00:00:00Z", "0000-00-00T00:00:00.000Z"]

    /// Where a form's numbers are: each run of `0`s in `template`, as (position from 1, length).
    static func digitRuns(_ template: String) -> [(start: Int, length: Int)] {
        var runs: [(start: Int, length: Int)] = []
        for (offset, character) in template.enumerated() where character == "0" {
            if let last = runs.last, last.start + last.length == offset + 1 {
                runs[runs.count - 1].length += 1
            } else {
                runs.append((offset + 1, 1))
            }
        }
        return runs
    }

    /// Spark SQL and DuckDB: the groups of a date's pattern in `text`, the common forms by position.
    private func positionalDateMatch(_ text: SQLExpression, matched: SQLExpression) -> SQLExpression {
        let forms = SQLSlotReader.commonDateForms.map { template in
            SQLExpression.When(.string(template), .textArray(SQLSlotReader.digitRuns(template).map {
                .call("substr", [text, .integer(Int64($0.start)), .integer(Int64($0.length))])
            }))
        }
        return .caseWhen(subject: .call("translate", [text, .string("0123456789"), .string("0000000000")]), forms, otherwise: matched)
    }

    /// PostgreSQL: the digits of `text` as one number `YYYYMMDDHHMMSSfff` when it has one of
    /// the common forms (a form without time or fraction is scaled up to the same places), else
    /// NULL. The form guarantees that removing its other characters leaves only ASCII digits, at
    /// most 17 of them, so the cast cannot fail.
    static func postgresDateDigits(_ text: String) -> String {
        let places = 17
        let forms = commonDateForms.map { template in
            var digits = text
            var removed: [Character] = []
            for character in template where character != "0" && !removed.contains(character) {
                removed.append(character)
                digits = "replace(\(digits), '\(character)', '')"
            }
            let number = "CAST(\(digits) AS BIGINT)"
            let missing = places - template.filter { $0 == "0" }.count
            return "WHEN \(hasPostgresForm(text, template)) THEN \(missing == 0 ? number : "\(number) * 1\(String(repeating: "0", count: missing))") "
        }
        return "CASE " + forms.joined() + "END"
    }

    /// PostgreSQL: whether `text` has the form `template`, `0` standing for an ASCII digit and
    /// every other character for itself, without `translate` (which measures each character of
    /// the text against each of its ten digits as multibyte text, the costliest step of reading a
    /// date). `LIKE` places the template's other characters and fixes the length; trimming the
    /// digits and those characters (a final `Z` aside) from both ends of the text's bytes as
    /// stored (`textsend`: no conversion that could fail; an ASCII character is the same one
    /// byte in every server encoding, and any other character has a byte that is not one of
    /// them) must leave only that `Z`; and no such character occurs more often than in the
    /// template, so each of them is where `LIKE` put it and every other position holds a digit.
    static func hasPostgresForm(_ text: String, _ template: String) -> String {
        let final = template.hasSuffix("Z") ? "Z" : ""
        let body = template.dropLast(final.count)
        let separators = body.filter { $0 != "0" }
        var distinct: [Character] = []
        for character in separators where !distinct.contains(character) { distinct.append(character) }
        func hex(_ characters: String) -> String { characters.utf8.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
        let like = String(template.map { $0 == "0" ? "_" : $0 })
        let collated = "(\(text) COLLATE \"C\")"
        let trimmed = "btrim(textsend(\(text)), decode('\(hex(String(distinct) + "0123456789"))', 'hex')) = decode('\(hex(final))', 'hex')"
        let counts = distinct.map { character in
            let once = separators.filter { $0 == character }.count
            return "\(collated) NOT LIKE '%\(String(repeating: "\(character)%", count: once + 1))'"
        }
        return "(" + (["\(collated) LIKE '\(like)'", trimmed] + counts).joined(separator: " AND ") + ")"
    }

    /// Parses the text column `text` as a version: `_ok`, and the parts `_maj`, `_min`, `_pat`
    /// (digit text without leading zeros) and `_pre` (the pre-release identifiers).
    func readVersion(text: String, prefix c: String, into stages: inout SQLStages) {
        let number = "0|[1-9][0-9]*"
        let identifier = "0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*"
        let pattern = "^v?(\(number))(?:[.](\(number)))?(?:[.](\(number)))?(?:-((?:\(identifier))(?:[.](?:\(identifier)))*))?(?:[+][0-9A-Za-z-]+(?:[.][0-9A-Za-z-]+)*)?" + dialect.endAnchor
        let m = "\(c)vm", match = SQLExpression.column(m)
        stages.add(SQLStage.view, m, sql(versionMatch(.column(text), pattern: pattern)))
        stages.add(SQLStage.parts, "\(c)ok", sql(.parenthesized(.groupsMatched(match))))
        stages.add(SQLStage.parts, "\(c)maj", sql(.element(match, 1)))
        stages.add(SQLStage.parts, "\(c)min", sql(.coalesce([.element(match, 2), .string("0")])))
        stages.add(SQLStage.parts, "\(c)pat", sql(.coalesce([.element(match, 3), .string("0")])))
        let pre = SQLExpression.element(match, 4)
        stages.add(SQLStage.parts, "\(c)pre", sql(.caseWhen(subject: nil, [.init(.isNull(pre, negated: false), .cast(.textArray([]), .textArray))], otherwise: .splitOnDot(pre))))
    }

    /// The groups of a version's `pattern` in `text`. In PostgreSQL a release version of
    /// digits and up to two dots (`4.1.0`, the common form) is taken apart with `split_part`
    /// first, each part a number without a leading zero as the pattern requires; anything else
    /// is matched. (In Spark SQL that test would make the generated code of a rule set with
    /// many versions too large to compile; its match is two passes of the pattern.)
    func versionMatch(_ text: SQLExpression, pattern: String) -> SQLExpression {
        let matched = SQLExpression.groups(text, pattern: pattern, count: 4)
        switch dialect {
        case .postgres, .duckdb: break
        case .spark, .clickhouse: return matched
        }
        let parts = (1...3).map { SQLExpression.call("split_part", [text, .string("."), .integer(Int64($0))]) }
        func number(_ part: SQLExpression) -> SQLExpression {
            .parenthesized(.and([.compare(part, .notEqual, .string("")),
                                 .parenthesized(.or([.compare(part, .equal, .string("0")), .compare(.prefix(part, 1), .notEqual, .string("0"))]))]))
        }
        func release(_ count: Int) -> SQLExpression {
            let used = Array(parts.prefix(count))
            return .caseWhen(subject: nil, [.init(.and(used.map(number)), .textArray(used))], otherwise: nil)
        }
        let dots = SQLExpression.call("translate", [text, .string("0123456789"), .string("")])
        return .caseWhen(subject: dots, [.init(.string(""), release(1)), .init(.string("."), release(2)), .init(.string(".."), release(3))], otherwise: matched)
    }
}
