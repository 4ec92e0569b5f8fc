import TargetingBase

/// Dates, ages and versions parsed in SQL exactly as `Timestamp.parse`, `Timestamp.age` and
/// `SemanticVersion(parsing:)` do, with regular expressions and integer arithmetic only, so that
/// no input ever raises an error.
extension SQLSlotReader {
    /// Parses the text column `text` as a date into `column` (Unix ms, NULL when unparsable).
    ///
    /// The common forms, `YYYY-MM-DD` and `YYYY-MM-DDTHH:MM:SS[.fff]Z`, are taken apart by
    /// position (regular expressions cost far more than a string function in both engines);
    /// anything else is matched. Spark SQL tells the form by the text with every ASCII digit made
    /// `0` and takes each part with `substr`. PostgreSQL tells it by `hasPostgresForm` and reads
    /// all its digits as one number, `<prefix>dn` (`YYYYMMDDHHMMSSfff`), whose parts are
    /// integer arithmetic: its `translate` and `substr` measure multibyte text character by
    /// character, which was most of the cost of reading a date.
    func readDate(text: String, prefix c: String, column: String, into stages: inout SQLStages) {
        let pattern = "^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:[.]([0-9]+))?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2})))?" + dialect.endAnchor
        let m = "\(c)dm"
        let matched = dialect.match(text, pattern, groups: 10)
        // PostgreSQL's column of the common forms' digits, `<prefix>dn`; none in Spark SQL.
        let digitsColumn: String?
        switch dialect {
        case .postgres:
            let digits = "\(c)dn"
            stages.add(SQLStage.view, digits, SQLSlotReader.postgresDateDigits(text))
            stages.add(SQLStage.view, m, "CASE WHEN \(digits) IS NULL THEN \(matched) END")
            digitsColumn = digits
        case .spark:
            stages.add(SQLStage.view, m, sparkDateMatch(text, matched: matched))
            digitsColumn = nil
        }
        /// A part: `fromDigits` of the digits' number where there is one, else `fromMatch`.
        func part(_ fromDigits: (String) -> String, _ fromMatch: String) -> String {
            digitsColumn.map { "CASE WHEN \($0) IS NOT NULL THEN \(fromDigits($0)) ELSE \(fromMatch) END" } ?? fromMatch
        }
        func number(_ index: Int) -> String { "coalesce(\(dialect.bigint(dialect.element(m, index))), 0)" }
        let names = ["y", "mo", "d", "h", "mi", "se"]
        for (offset, name) in names.enumerated() {
            // The number's digits from the left: 4 of the year, then 2 of each part, then 3 of milliseconds.
            let below = 3 + 2 * (names.count - 1 - offset)
            let scale = "1" + String(repeating: "0", count: below)
            stages.add(SQLStage.parts, "\(c)d\(name)", part({ offset == 0 ? "\($0) / \(scale)" : "\($0) / \(scale) % 100" }, number(offset + 1)))
        }
        let fraction = dialect.element(m, 7)
        stages.add(SQLStage.parts, "\(c)dfr", part({ "\($0) % 1000" },
                                                     "CASE WHEN \(fraction) IS NULL THEN 0 ELSE \(dialect.bigint("rpad(substr(\(fraction), 1, 3), 3, '0')")) END"))
        stages.add(SQLStage.parts, "\(c)doh", part({ _ in "0" }, number(9)))
        stages.add(SQLStage.parts, "\(c)dom", part({ _ in "0" }, number(10)))
        stages.add(SQLStage.parts, "\(c)dsg", part({ _ in "1" }, "CASE WHEN \(dialect.element(m, 8)) = '-' THEN -1 ELSE 1 END"))
        stages.add(SQLStage.parts, "\(c)dok", digitsColumn.map { "(\($0) IS NOT NULL OR \(m) IS NOT NULL)" } ?? "(\(m) IS NOT NULL)")

        let parts = SQLInstantParts.columns(prefix: "\(c)d")
        stages.add(SQLStage.value, column, dialect.sql(parts.milliseconds))
        // Whether it parsed, without the arithmetic of its instant: what `profile.age` needs.
        stages.add(SQLStage.value, "\(c)dv", dialect.sql(parts.valid))
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

    /// Spark SQL: the groups of a date's pattern in `text`, the common forms by position.
    private func sparkDateMatch(_ text: String, matched: String) -> String {
        let forms = SQLSlotReader.commonDateForms.map { template in
            "WHEN '\(template)' THEN \(dialect.textArray(SQLSlotReader.digitRuns(template).map { "substr(\(text), \($0.start), \($0.length))" })) "
        }
        return "CASE translate(\(text), '0123456789', '0000000000') " + forms.joined() + "ELSE \(matched) END"
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

    /// `profile.age` from the birthday parsed into the parts `_dy`, `_dmo`, … and `_dv`: whole
    /// years from its UTC calendar date to the UTC calendar date of now; a 29 February birthday
    /// counts from 1 March in other years.
    ///
    /// The UTC calendar date is the written date moved by at most one day: `_sh`, the whole
    /// days the offset moves the written time of day across (−1, 0 or 1; 0 for a date alone or
    /// `Z`). The day before the first of a month is the last of the month before; the day after
    /// the last of a month is the first of the next.
    func readAge(prefix c: String, into stages: inout SQLStages) {
        let y = "\(c)dy", m = "\(c)dmo", d = "\(c)dd", shift = "\(c)sh"
        let minutes = "\(c)dh * 60 + \(c)dmi - \(c)dsg * (\(c)doh * 60 + \(c)dom)"
        stages.add(SQLStage.value, shift, dialect.floorDivide(minutes, 1440))
        func length(_ year: String, _ month: String) -> String {
            "CASE WHEN \(month) IN (1, 3, 5, 7, 8, 10, 12) THEN 31 WHEN \(month) IN (4, 6, 9, 11) THEN 30 "
                + "WHEN (\(year) % 4 = 0 AND (\(year) % 100 <> 0 OR \(year) % 400 = 0)) THEN 29 ELSE 28 END"
        }
        let monthEnds = "\(d) = \(length(y, m))"
        let previousLength = "CASE WHEN \(m) = 1 THEN 31 ELSE \(length(y, "\(m) - 1")) END"
        stages.add(SQLStage.civilDate, "\(c)bd", "(CASE WHEN \(shift) = 0 THEN \(d) "
            + "WHEN \(shift) > 0 THEN CASE WHEN \(monthEnds) THEN 1 ELSE \(d) + 1 END "
            + "ELSE CASE WHEN \(d) = 1 THEN \(previousLength) ELSE \(d) - 1 END END)")
        stages.add(SQLStage.civilDate, "\(c)bm", "(CASE WHEN \(shift) = 0 THEN \(m) "
            + "WHEN \(shift) > 0 THEN CASE WHEN \(monthEnds) THEN CASE WHEN \(m) = 12 THEN 1 ELSE \(m) + 1 END ELSE \(m) END "
            + "ELSE CASE WHEN \(d) = 1 THEN CASE WHEN \(m) = 1 THEN 12 ELSE \(m) - 1 END ELSE \(m) END END)")
        stages.add(SQLStage.civilDate, "\(c)by", "(CASE WHEN \(shift) > 0 AND \(m) = 12 AND \(d) = 31 THEN \(y) + 1 "
            + "WHEN \(shift) < 0 AND \(m) = 1 AND \(d) = 1 THEN \(y) - 1 ELSE \(y) END)")

        let today = Timestamp.civilDate(ms: now)
        func before(_ month: String, _ day: String) -> String {
            "(\(month) > \(today.month) OR (\(month) = \(today.month) AND \(day) > \(today.day)))"
        }
        var beforeAnniversary = before("\(c)bm", "\(c)bd")
        if !CivilDate.isLeapYear(today.year) {
            let marchFirst = (3, 1) > (today.month, today.day) ? "TRUE" : "FALSE"
            beforeAnniversary = "(CASE WHEN \(c)bm = 2 AND \(c)bd = 29 THEN \(marchFirst) ELSE \(beforeAnniversary) END)"
        }
        let age = "\(today.year) - \(c)by - CASE WHEN \(beforeAnniversary) THEN 1 ELSE 0 END"
        stages.add(SQLStage.derived, "\(c)v", "CASE WHEN \(c)dv THEN \(dialect.doubleCast(age)) END")
    }

    /// Parses the text column `text` as a version: `_ok`, and the parts `_maj`, `_min`, `_pat`
    /// (digit text without leading zeros) and `_pre` (the pre-release identifiers).
    func readVersion(text: String, prefix c: String, into stages: inout SQLStages) {
        let number = "0|[1-9][0-9]*"
        let identifier = "0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*"
        let pattern = "^v?(\(number))(?:[.](\(number)))?(?:[.](\(number)))?(?:-((?:\(identifier))(?:[.](?:\(identifier)))*))?(?:[+][0-9A-Za-z-]+(?:[.][0-9A-Za-z-]+)*)?" + dialect.endAnchor
        let m = "\(c)vm"
        stages.add(SQLStage.view, m, versionMatch(text, pattern: pattern))
        stages.add(SQLStage.parts, "\(c)ok", "(\(m) IS NOT NULL)")
        stages.add(SQLStage.parts, "\(c)maj", dialect.element(m, 1))
        stages.add(SQLStage.parts, "\(c)min", "coalesce(\(dialect.element(m, 2)), '0')")
        stages.add(SQLStage.parts, "\(c)pat", "coalesce(\(dialect.element(m, 3)), '0')")
        stages.add(SQLStage.parts, "\(c)pre", "CASE WHEN \(dialect.element(m, 4)) IS NULL THEN \(dialect.emptyTextArray) ELSE \(dialect.splitOnDot(dialect.element(m, 4))) END")
    }

    /// The groups of a version's `pattern` in `text`. In PostgreSQL a release version of
    /// digits and up to two dots (`4.1.0`, the common form) is taken apart with `split_part`
    /// first, each part a number without a leading zero as the pattern requires; anything else
    /// is matched. (In Spark SQL that test would make the generated code of a rule set with
    /// many versions too large to compile; its match is two passes of the pattern.)
    func versionMatch(_ text: String, pattern: String) -> String {
        let matched = dialect.match(text, pattern, groups: 4)
        switch dialect {
        case .postgres: break
        case .spark: return matched
        }
        let parts = (1...3).map { "split_part(\(text), '.', \($0))" }
        func number(_ part: String) -> String { "(\(part) <> '' AND (\(part) = '0' OR left(\(part), 1) <> '0'))" }
        func release(_ count: Int) -> String {
            let used = Array(parts.prefix(count))
            return "CASE WHEN \(used.map(number).joined(separator: " AND ")) THEN \(dialect.textArray(used)) END"
        }
        return "CASE translate(\(text), '0123456789', '') "
            + "WHEN '' THEN \(release(1)) WHEN '.' THEN \(release(2)) WHEN '..' THEN \(release(3)) "
            + "ELSE \(matched) END"
    }
}
