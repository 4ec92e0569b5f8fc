/// A SQL expression as a small tree, which `SQLDialect.sql(_:)` prints in one engine's
/// spelling: the compiler says what to compute, the dialect says how its engine writes it.
///
/// Shared constructs print the same text in every dialect. Parentheses are explicit
/// (`parenthesized`): `and`, `or`, `not`, `compare`, `isIn` and `isNull` print bare, so the
/// tree says exactly where the printed text groups. The constructs after `raw` are spelled
/// differently by some engine; each prints itself whole, with whatever parentheses its
/// spelling has.
indirect enum SQLExpression: Hashable, Sendable {
    /// A column, or a qualified or lambda-bound name, written as it is.
    case column(String)
    /// A text literal.
    case string(String)
    /// A number literal, as a double.
    case number(Double)
    /// An integer literal.
    case integer(Int64)
    /// `TRUE` or `FALSE`.
    case bool(Bool)
    /// `NULL`.
    case null
    /// An instant (Unix ms) in the engine's instant type, UTC.
    case instant(Int64)
    /// A calendar date (days since 1970-01-01) in the engine's date type.
    case calendarDate(Int64)
    /// `CAST(value AS type)`.
    case cast(SQLExpression, ValueType)
    /// `(inner)`.
    case parenthesized(SQLExpression)
    /// `a AND b AND …` (`TRUE` when empty).
    case and([SQLExpression])
    /// `a OR b OR …` (`FALSE` when empty).
    case or([SQLExpression])
    /// `NOT inner`.
    case not(SQLExpression)
    /// `left op right`.
    case compare(SQLExpression, Comparison, SQLExpression)
    /// `value IN (a, b, …)`.
    case isIn(SQLExpression, [SQLExpression])
    /// `value IS NULL`, or `value IS NOT NULL` when `negated`.
    case isNull(SQLExpression, negated: Bool)
    /// `left op right`, an arithmetic operation on numbers.
    case arithmetic(SQLExpression, Arithmetic, SQLExpression)
    /// `value BETWEEN low AND high`.
    case between(SQLExpression, SQLExpression, SQLExpression)
    /// `coalesce(a, b, …)`: the first value that is not NULL.
    case coalesce([SQLExpression])
    /// `CASE [subject] WHEN … THEN … … [ELSE …] END`.
    case caseWhen(subject: SQLExpression?, [When], otherwise: SQLExpression?)
    /// A call of a function every engine names and reads alike (`length(text)`).
    case call(String, [SQLExpression])
    /// `value /* note */` (the note never holds `*/`).
    case commented(SQLExpression, String)
    /// Text written as it is, for what every engine spells the same way and has no case here.
    case raw(String)

    /// Whether `text` holds `fragment`.
    case contains(SQLExpression, SQLExpression)
    /// Whether the text array `array` holds `value`.
    case arrayContains(SQLExpression, SQLExpression)
    /// Whether the text array `array` holds any of `values`.
    case overlaps(SQLExpression, [SQLExpression])
    /// Whether the text array `array` holds all of `values`.
    case containsAll(SQLExpression, [SQLExpression])
    /// The first `count` characters of a text.
    case prefix(SQLExpression, Int)
    /// The last `count` characters of a text.
    case suffix(SQLExpression, Int)
    /// Whether `text` matches the regular expression `pattern` (a text).
    case matches(SQLExpression, SQLExpression)
    /// Whether a text is one or more ASCII digits.
    case isDigits(SQLExpression)
    /// Whether two values are equal or both NULL.
    case notDistinct(SQLExpression, SQLExpression)
    /// Whether `groups` (a `groups` value) matched.
    case groupsMatched(SQLExpression)
    /// A text array standing for no set: NULL, or in ClickHouse (which has no NULL array) the
    /// empty array.
    case nullArray
    /// Whether a set value is set: not NULL, or in ClickHouse not empty.
    case setIsPresent(SQLExpression)
    /// The groups of the regular expression `pattern` in `text`, as an array (NULL for a group
    /// that did not take part), or NULL when `text` does not match. Groups must never match
    /// empty text, nor text with a `|`: Spark SQL matches twice (`RLIKE`, then one
    /// `regexp_replace` that writes every group, `|` between them), not once per group.
    case groups(SQLExpression, pattern: String, count: Int)
    /// A text compared by its bytes.
    case bytes(SQLExpression)
    /// The lowercase mapping of `ignoring case` (`CaseFolding.lowercase`: full Unicode mapping,
    /// Final_Sigma). PostgreSQL's `lower()` applies it under an ICU collation only (the libc one
    /// of a `C.UTF-8` database maps each character alone), hence `und-x-icu`; Spark's `lower()`
    /// is Java's `toLowerCase`, which applies it. In PostgreSQL ASCII text (as many bytes as
    /// characters) takes the byte-wise `lower()` first, which maps ASCII as ICU does.
    case lowercase(SQLExpression)
    /// Every element of a text array lowercased.
    case lowercaseAll(SQLExpression)
    /// A text trimmed of Unicode white space at both ends, as `AdaptyLimits.trimmed` trims.
    case trim(SQLExpression)
    /// The number of elements of an array.
    case count(SQLExpression)
    /// Whether an array has a NULL element.
    case hasNullElement(SQLExpression)
    /// The elements of a text array joined with commas.
    case joinWithCommas(SQLExpression)
    /// Whether a double is NaN or infinite.
    case isNotFinite(SQLExpression)
    /// The one-based element `index` of an array, NULL past its end.
    case element(SQLExpression, Int)
    /// An array of texts (`element` reads NULL past its end).
    case textArray([SQLExpression])
    /// A text split on commas, empty parts kept.
    case splitOnComma(SQLExpression)
    /// A text split on full stops, empty parts kept.
    case splitOnDot(SQLExpression)
    /// Integer division of non-negative integers.
    case divide(SQLExpression, SQLExpression)
    /// Texts joined end to end.
    case concat([SQLExpression])
    /// A text number as a double, never raising an error.
    case textToDouble(SQLExpression)
    /// What a split bucket is worked out from, once per draw, for a key text: in PostgreSQL the
    /// last 8 bytes of its MD5 as a `BIGINT` (two's complement: negative when the first bit is
    /// set), in Spark SQL the MD5 in hex.
    case hash(SQLExpression)
    /// The split bucket, 0..<100, of a `hash` (or a column holding one: it is read twice): the
    /// last 8 bytes of the MD5 as an unsigned big-endian number, modulo 100.
    case bucket(SQLExpression)
    /// The columns of a row as one text, equal for equal rows.
    case rowText([SQLExpression])
    /// In a grouped query, the `count` smallest non-NULL values of a text column, as an array.
    case smallest(Int, SQLExpression)

    /// The profile's top-level member `name`: `jsonb` in PostgreSQL, the parsed member's text in
    /// Spark SQL (a string's still marked, see `SparkParse`).
    case profileMember(String)
    /// The member at `path` (object keys) inside a JSON value: `jsonb` in PostgreSQL, JSON text
    /// (a string's text without quotes, still marked) in Spark SQL.
    case jsonMember(SQLExpression, [String])
    /// The JSON type name of a member (`string`, `number`, `boolean`, `array`, `object`), NULL
    /// when it is absent or `null`.
    case jsonType(SQLExpression)
    /// Whether a member is a string.
    case jsonIsString(SQLExpression)
    /// Whether a member is an object.
    case jsonIsObject(SQLExpression)
    /// The text of a member that is a string.
    case jsonStringText(SQLExpression)
    /// The text of a member that is a string or a number; NULL for an array or an object (a
    /// boolean's is read nowhere: NULL in PostgreSQL, `true` or `false` in Spark SQL).
    case jsonScalarText(SQLExpression)
    /// A column of JSON text as the engine reads JSON: `jsonb` in PostgreSQL, the text with
    /// every string marked in Spark SQL.
    case jsonFromText(SQLExpression)
    /// The instants in the JSON array `list` (`history.shown.PLACEMENT`) that parse as
    /// `ProfileHistory.instant` parses them: an array of distinct Unix milliseconds, empty when
    /// there is no array.
    case shownInstants(SQLExpression)
    /// How many elements of an array of integers are above `after` and at most `upTo`.
    case countWithin(SQLExpression, after: Int64, upTo: Int64)
    /// The largest element of an array, NULL when it is empty.
    case arrayMax(SQLExpression)

    /// `dividend` divided by the positive constant `divisor`, rounding towards negative
    /// infinity: the remainder is made non-negative before an integer division.
    static func floorDivide(_ dividend: SQLExpression, by divisor: Int64) -> SQLExpression {
        let a = SQLExpression.parenthesized(dividend), b = SQLExpression.integer(divisor)
        let remainder = SQLExpression.parenthesized(.arithmetic(.parenthesized(.arithmetic(.parenthesized(.arithmetic(a, .remainder, b)), .plus, b)), .remainder, b))
        return .divide(.arithmetic(a, .minus, remainder), b)
    }

    /// A column type.
    enum ValueType: Hashable, Sendable {
        case text, double, bigint, int, boolean, textArray
        /// A calendar date.
        case date
        /// An instant, UTC, to the millisecond.
        case timestamp
        /// A JSON document (the typed table's `history`).
        case json
    }

    /// A comparison operator.
    enum Comparison: String, Hashable, Sendable {
        case equal = "="
        case notEqual = "<>"
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// An arithmetic operator.
    enum Arithmetic: String, Hashable, Sendable {
        case plus = "+"
        case minus = "-"
        case times = "*"
        /// The remainder, with the sign of the dividend.
        case remainder = "%"
    }

    /// One `WHEN condition THEN result` of a `caseWhen`.
    struct When: Hashable, Sendable {
        let condition: SQLExpression
        let result: SQLExpression

        init(_ condition: SQLExpression, _ result: SQLExpression) {
            self.condition = condition
            self.result = result
        }
    }
}
