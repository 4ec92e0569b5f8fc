/// Builds the text of a rules or tests file from the fuzzer's choices, following the grammar
/// of the rules and tests languages closely enough that most inputs parse and many check, with random layout
/// (spaces, line breaks, CRLF, tabs, comments) between the tokens. A few choices break the
/// grammar on purpose, so the parser's recovery is reached from nearly-valid files too.
package struct RulesGrammar {
    private var choices: FuzzChoices
    private var tokens: [String] = []

    package init(_ bytes: [UInt8]) { choices = FuzzChoices(bytes) }

    static let segments = ["s1", "s2", "s3", "pros", "adults", "sporty", "beginners"]
    static let audiences = ["a1", "a2", "a3", "pro_adults", "casual_amateurs", "sporty_beginners"]
    static let placements = ["p1", "p2", "onboarding_followup", "main_paywall"]
    static let attributes = ["experience", "weekly_hours", "reminders", "interests", "goal", "sdk", "x", "y.z", "`k-1`",
                             "profile.age", "profile.country", "profile.app_version", "profile.installed_at",
                             "profile.access_levels", "profile.platform", "profile.id", "profile.birthday",
                             "profile.total_revenue_usd", "profile.gender", "profile.nope"]
    static let strings = ["\"pro\"", "\"amateur\"", "\"beginner\"", "\"a\"", "\"\"", "\"A\\u{301}\"", "\"é\"", "\"x\\ny\"",
                          "\"4.2.0\"", "\"v1\"", "\"1.0.0-beta\"", "\"US\"", "\"ios\"", "\"sports\"", "\"\\\"\""]
    static let numbers = ["0", "1", "-1", "18", "2.5", "-0.0", "99999999999999999999", "10"]
    static let dates = ["2026-11-29", "2026-11-29T12:00:00Z", "2024-02-29", "2026-01-01T00:00:00.123456+05:30", "1970-01-01"]
    static let durations = ["7d", "12h", "30m", "0s", "99999999999d"]

    private mutating func emit(_ token: String) { tokens.append(token) }

    private mutating func name(_ pool: [String]) -> String {
        choices.chance(3) ? pick(["_", "x1", "segment", "`odd name`", "Zz"]) : pick(pool)
    }

    private mutating func pick(_ options: [String]) -> String { choices.pick(options) }

    private mutating func literal() {
        switch choices.below(6) {
        case 0, 1: emit(pick(Self.strings))
        case 2: emit(pick(Self.numbers))
        case 3: emit(pick(["true", "false"]))
        case 4: emit(pick(Self.dates))
        default:
            emit("now")
            if choices.chance(60) { emit(pick(["-", "+"])); emit(pick(Self.durations)) }
        }
    }

    private mutating func list() {
        emit("[")
        let strings = choices.chance(60)
        let count = choices.within(0...4)
        for index in 0..<count {
            if index > 0 { emit(",") }
            emit(strings ? pick(Self.strings) : pick(Self.numbers))
        }
        if count > 0 && choices.chance(10) { emit(",") }
        emit("]")
    }

    private mutating func comparison() {
        if choices.chance(10) { emit("now") } else { emit(pick(Self.attributes)) }
        switch choices.below(12) {
        case 0: emit(pick(["==", "!=", "<", "<=", ">", ">="])); literal()
        case 1: emit(pick(["==", "!="])); literal()
        case 2: emit("between"); literal(); emit("and"); literal()
        case 3: if choices.chance(50) { emit("not") }; emit("in"); list()
        case 4: emit(pick(["contains", "starts with", "ends with"])); emit(pick(Self.strings))
        case 5: emit("has"); emit(pick(Self.strings))
        case 6: emit("has"); emit(pick(["any", "all", "none"])); list()
        case 7: emit("is"); if choices.chance(50) { emit("not") }; emit("set")
        case 8: emit(pick(["==", "contains", "has"])); emit(pick(Self.strings)); emit("ignoring case")
        default: emit(pick([">=", "<", "=="])); literal()
        }
    }

    private mutating func expression(depth: Int, segments: Bool) {
        let leaf = depth > 4 || choices.chance(45)
        if leaf {
            if segments && choices.chance(65) { comparison() } else { emit(name(segments ? Self.segments : Self.segments)) }
            return
        }
        switch choices.below(4) {
        case 0: emit("not"); expression(depth: depth + 1, segments: segments)
        case 1: emit("("); expression(depth: depth + 1, segments: segments); emit(")")
        default:
            expression(depth: depth + 1, segments: segments)
            emit(pick(["and", "or"]))
            expression(depth: depth + 1, segments: segments)
        }
    }

    private mutating func destination() {
        switch choices.below(5) {
        case 0: emit("nothing")
        case 1: emit("paywall"); emit(pick(["\"pw_a\"", "\"pw_b\""]))
        case 2:
            emit("split"); emit(pick(["\"t1\"", "\"t2\""])); emit("{")
            let count = choices.within(1...4)
            var left = 100
            for index in 0..<count {
                let weight = index == count - 1 && choices.chance(80) ? left : choices.within(0...101)
                left -= weight
                emit("\(weight)%"); emit("->")
                if choices.chance(20) { emit("nothing") } else { emit("flow"); emit(pick(["\"f_a\"", "\"f_b\"", "\"f_c\"", "\"f_d\""])) }
            }
            emit("}")
        default: emit("flow"); emit(pick(["\"f_a\"", "\"f_b\"", "\"f_c\""]))
        }
    }

    private mutating func declaration() {
        switch choices.below(10) {
        case 0:
            emit("attribute"); emit(pick(Self.attributes)); emit(":")
            let type = pick(["string", "number", "bool", "set", "date", "version", "text"])
            emit(type)
            if type == "string" && choices.chance(50) { emit("one of"); list() }
            if type == "set" { emit("of"); list() }
        case 1:
            emit("input")
            if choices.chance(40) { emit(pick(["scr", "\"scr 1\"", "`s-2`"])); emit("/") }
            emit(pick(["email", "experience", "\"fav sport\"", "`q-1`", "birthday"]))
            emit("->")
            emit(pick(["profile.email", "profile.first_name", "profile.birthday", "profile.age", "experience", "interests", "`k-1`"]))
        case 2, 3, 4, 5:
            emit("segment"); emit(name(Self.segments)); emit("=")
            expression(depth: 0, segments: true)
        case 6, 7:
            emit("audience"); emit(name(Self.audiences)); emit("=")
            expression(depth: 0, segments: false)
        default:
            emit("placement"); emit(name(Self.placements)); emit("{")
            for _ in 0..<choices.within(0...4) {
                emit(choices.chance(25) ? "everyone" : name(Self.audiences)); emit("->"); destination()
            }
            emit("}")
        }
        if choices.chance(2) { emit(pick(["=", "->", "{", "}", "(", "and", "\"open", "@", "1.2.3"])) }
    }

    private mutating func givenValue() {
        if choices.chance(20) { list() } else { literal() }
    }

    private mutating func test() {
        emit("test"); emit(pick(["\"t\"", "\"pro adults\"", "\"\"", "\"t\\u{1F600}\""])); emit("{")
        for _ in 0..<choices.within(0...5) {
            switch choices.below(6) {
            case 0: emit("now"); emit(pick(Self.dates))
            case 1:
                emit("given"); emit("{")
                for _ in 0..<choices.within(0...4) { emit(pick(Self.attributes)); emit("="); givenValue() }
                emit("}")
            case 2: emit("given"); emit(pick(["events", "profile"])); emit(pick(["\"events.jsonl\"", "\"profile.json\"", "\"missing\""]))
            default:
                emit("expect")
                if choices.chance(50) {
                    emit(name(Self.placements)); emit("->")
                    switch choices.below(3) {
                    case 0: emit("nothing")
                    case 1: emit("paywall"); emit(pick(["\"pw_a\"", "\"pw_b\""]))
                    default: emit("flow"); emit(pick(["\"f_a\"", "\"f_b\"", "\"flow_pro_v2\"", "\"flow_default\""]))
                    }
                    if choices.chance(20) { emit("from"); emit(choices.chance(30) ? "everyone" : name(Self.audiences)) }
                } else {
                    if choices.chance(40) { emit("not") }
                    emit(choices.chance(50) ? name(Self.segments) : name(Self.audiences))
                }
            }
        }
        emit("}")
    }

    /// The tokens joined with random white space and comments.
    private mutating func layout() -> String {
        var text = choices.chance(5) ? "\u{FEFF}" : ""
        for (index, token) in tokens.enumerated() {
            if index > 0 || choices.chance(10) {
                switch choices.below(16) {
                case 0: text += "\n"
                case 1: text += "\r\n"
                case 2: text += "  # note \(index)\n"
                case 3: text += "\t"
                case 4: text += "\n\n"
                case 5: text += " #\r"
                default: text += " "
                }
            }
            text += token
        }
        if choices.chance(30) { text += "  # end" }
        if choices.chance(70) { text += "\n" }
        return text
    }

    /// A rules file of several declarations.
    package mutating func rulesText() -> String {
        for _ in 0..<choices.within(1...12) {
            declaration()
            if choices.isExhausted { break }
        }
        return layout()
    }

    /// A tests file of a few tests.
    package mutating func testsText() -> String {
        for _ in 0..<choices.within(1...4) {
            test()
            if choices.isExhausted { break }
        }
        return layout()
    }
}
