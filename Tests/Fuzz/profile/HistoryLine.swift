import TargetingFuzzSupport

/// A profile line with a `history`, written as text from the fuzzer's choices: valid, or broken
/// in one or two ways the README says reject the profile. It knows what it means: the history a
/// valid line holds (by `SampleHistory`'s rules, never by reading the text), or that it must be
/// rejected.
struct HistoryLine {
    /// The line.
    var text = ""
    /// What a valid line's history means; nil for a line without one (`null` or absent).
    var meaning: SampleHistory?
    /// Ways the line breaks the rules (empty: it is valid).
    var breaks: [String] = []

    /// The instant the generated histories are built around: 2026-11-29T12:00:00Z.
    static let now: Int64 = 1_795_953_600_000

    static func generate(_ choices: inout FuzzChoices) -> HistoryLine {
        var line = HistoryLine()
        var members = [#""id":"u1""#]
        if choices.chance(40) { members.append(#""custom_attributes":{"plan":"pro","seats":3}"#) }
        if choices.chance(30) { members.append(#""country":"DE""#) }
        switch choices.below(12) {
        case 0: break
        case 1: members.append(#""history":null"#)
        case 2:
            line.breaks.append("`history` is not an object")
            members.append(#""history":"# + choices.pick(["[]", "\"shown\"", "3", "true"]))
        default:
            var meaning = SampleHistory()
            let history = line.history(&meaning, &choices)
            line.meaning = meaning
            members.append(#""history":"# + history)
            if choices.chance(4) {
                line.breaks.append("`history` appears twice")
                members.append(#""history":"# + choices.pick(["null", "{}"]))
            }
        }
        if choices.chance(30) { members.reverse() }
        let space = choices.chance(20) ? " " : ""
        line.text = "{" + space + members.joined(separator: "," + space) + space + "}"
        return line
    }

    /// A `history` object's text; what it means goes into `meaning`, breaks into `breaks`.
    mutating func history(_ meaning: inout SampleHistory, _ choices: inout FuzzChoices) -> String {
        var members: [String] = []
        if choices.chance(80) { members.append(#""shown":"# + shown(&meaning, &choices)) }
        if choices.chance(60) { members.append(#""assigned":"# + assigned(&meaning, &choices)) }
        if choices.chance(4) {
            breaks.append("an unknown key of `history`")
            members.append(#""other":{}"#)
        }
        if choices.chance(4), let first = members.first {
            breaks.append("a key of `history` twice")
            members.append(first)
        }
        if choices.chance(30) { members.reverse() }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// A name `prefix` + `index`: plain, non-ASCII, or written with an escape.
    func name(_ prefix: String, _ index: Int, _ choices: inout FuzzChoices) -> (text: String, name: String) {
        switch choices.below(6) {
        case 0: return ("\(prefix)é\(index)", "\(prefix)é\(index)")
        case 1: return ("\(prefix)\\u005f\(index)", "\(prefix)_\(index)")
        default: return ("\(prefix)\(index)", "\(prefix)\(index)")
        }
    }

    mutating func shown(_ meaning: inout SampleHistory, _ choices: inout FuzzChoices) -> String {
        if choices.chance(3) {
            breaks.append("`history.shown` is not an object")
            return "[]"
        }
        var members: [String] = []
        for index in 0..<choices.below(4) {
            let (key, name) = self.name("p", index, &choices)
            var instants: [Int64] = []
            var items: [String] = []
            let count = choices.chance(8) ? choices.pick([99, 100, 101]) : choices.below(7)
            for item in 0..<count {
                let at = count > 7 ? HistoryLine.now - Int64(item) * 60_000 : HistoryLine.now + Int64(choices.within(-5...5)) * Int64(choices.pick([1, 1_000, 3_600_000, 86_400_000]))
                instants.append(at)
                var text = Civil.text(ms: at, &choices)
                if let dot = text.firstIndex(of: "."), choices.chance(20) {
                    // More digits than milliseconds: the rest is cut off.
                    text.insert("9", at: text.index(dot, offsetBy: 4))
                }
                items.append("\"" + text + "\"")
            }
            if count > 100 { breaks.append("more than 100 instants") }
            if choices.chance(4), !items.isEmpty {
                breaks.append("an instant that is not one")
                items[choices.below(items.count)] = choices.pick(["\"2026-11-29\"", "\"2026-02-30T00:00:00Z\"", "\"2026-11-29T24:00:00Z\"", "\"\"", "17", "null", "\"2026-11-29T12:00:00\""])
            }
            if choices.chance(3) {
                breaks.append("a placement's instants are not a list")
                members.append("\"\(key)\":\"2026-11-29T12:00:00Z\"")
                continue
            }
            meaning.list(name, instants)
            members.append("\"\(key)\":[" + items.joined(separator: ",") + "]")
        }
        if choices.chance(3) {
            breaks.append("an empty placement name")
            members.append(#""":[]"#)
        }
        if choices.chance(4), let first = members.first {
            breaks.append("a placement twice")
            members.append(first)
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    mutating func assigned(_ meaning: inout SampleHistory, _ choices: inout FuzzChoices) -> String {
        if choices.chance(3) {
            breaks.append("`history.assigned` is not an object")
            return "[]"
        }
        var members: [String] = []
        for index in 0..<choices.below(4) {
            let (key, name) = self.name("e", index, &choices)
            let at = HistoryLine.now - Int64(choices.within(-3...3)) * 86_400_000 + Int64(choices.pick([0, 1, -1, 250]))
            let variant = choices.pick(["va", "vb", "control", "é"])
            var fields = [#""variant":"\#(variant)""#, #""at":"\#(Civil.text(ms: at, &choices))""#]
            var isObject = true
            switch choices.below(24) {
            case 0: breaks.append("no variant"); fields.removeFirst()
            case 1: breaks.append("no instant"); fields.removeLast()
            case 2: breaks.append("an empty variant"); fields[0] = #""variant":"""#
            case 3: breaks.append("a variant that is not a string"); fields[0] = #""variant":3"#
            case 4: breaks.append("an unknown key of an assignment"); fields.append(#""x":"y""#)
            case 5: breaks.append("a variant twice"); fields.append(#""variant":"vb""#)
            case 6: breaks.append("a bare date"); fields[1] = #""at":"2026-11-29""#
            case 7: breaks.append("an assignment that is not an object"); isObject = false
            default: break
            }
            if choices.chance(30) { fields.reverse() }
            guard isObject else {
                members.append("\"\(key)\":\"\(variant)\"")
                continue
            }
            meaning.assigned[name] = (variant, at)
            members.append("\"\(key)\":{" + fields.joined(separator: ",") + "}")
        }
        if choices.chance(4), let first = members.first {
            breaks.append("an experiment twice")
            members.append(first)
        }
        return "{" + members.joined(separator: ",") + "}"
    }
}
