import TargetingBase

/// A literal of a generated comparison, with its text and its meaning.
package enum Literal {
    case string(String)
    case number(Double, text: String)
    case bool(Bool)
    /// An absolute instant, or `now` shifted by `offset` ms.
    case date(Int64, text: String)
    case relative(Int64, text: String)
    case version(Version, text: String)
    /// The pattern of `matches` (the text between the slashes) and its meaning.
    case pattern(String, ReferencePattern)

    package var text: String {
        switch self {
        case .string(let value): return "\"" + value + "\""
        case .number(_, let text), .date(_, let text), .relative(_, let text): return text
        case .bool(let value): return value ? "true" : "false"
        case .version(_, let text): return "\"" + text + "\""
        case .pattern(let text, _): return "/" + text + "/"
        }
    }
}

/// What a generated comparison reads: an attribute, or the profile's history of placements.
package enum Subject {
    /// The attribute of this index in `World.attributes`.
    case attribute(Int)
    /// `shown P [in WINDOW]`: how often the placements were shown together (in the window, or at all).
    case shownCount(PlacementGroup, window: World.Duration?)
    /// `last shown P`: when any of the placements was last shown.
    case lastShown(PlacementGroup)

    /// The type of what it reads.
    package var kind: Kind {
        switch self {
        case .attribute(let index): return World.attributes[index].kind
        case .shownCount: return .number
        case .lastShown: return .date
        }
    }

    /// How rules write it.
    package var text: String {
        switch self {
        case .attribute(let index): return World.attributes[index].reference
        case .shownCount(let group, let window): return "shown " + group.text + (window.map { " in " + $0.text } ?? "")
        case .lastShown(let group): return "last shown " + group.text
        }
    }
}

/// One generated comparison.
package struct Comparison {
    package enum Operator {
        case equal, notEqual, less, lessEqual, greater, greaterEqual, between
        case inList, notInList, contains, startsWith, endsWith, matches
        case has, hasAny, hasAll, hasNone, isSet, isNotSet
    }
    package var subject: Subject
    package var op: Operator
    package var literals: [Literal]
    package var foldCase: Bool
}

/// A generated expression: over comparisons, prerequisites and earlier segments (segments), or
/// over segments (audiences).
package indirect enum Expression {
    case comparison(Comparison)
    case prerequisite(Prerequisite)
    case segment(Int)
    case not(Expression)
    case and(Expression, Expression)
    case or(Expression, Expression)
    case group(Expression)
}

/// Whose value a split, an experiment or the holdout draws on (`by KEY`).
package enum WorldKey {
    /// `profile.id` (written, or the default).
    case id(written: Bool)
    /// The attribute of this index in `World.attributes` (a string one).
    case attribute(Int)

    /// ` by KEY`, or "" for the unwritten default.
    package var text: String {
        switch self {
        case .id(let written): return written ? " by profile.id" : ""
        case .attribute(let index): return " by " + World.attributes[index].reference
        }
    }
}

/// A generated experiment: `experiment eN [by KEY] [sticky DURATION] { W% vN … }`.
package struct Experiment {
    package var name: String
    package var key: WorldKey
    /// How long a recorded assignment keeps deciding; nil when not sticky.
    package var sticky: World.Duration?
    package var variants: [(weight: Int, name: String)]
}

/// The generated holdout: `holdout h W% [by KEY] [except p…]`.
package struct Holdout {
    package var weight: Int
    package var key: WorldKey
    /// Indices of the placements it does not cover.
    package var excepted: [Int]
}

/// A generated placement row.
package struct Row {
    /// nil for `everyone`.
    package var audience: Int?
    package enum Destination {
        case flow(String), nothing
        case split(id: String, variants: [(weight: Int, flow: String?)], key: WorldKey)
        /// A row using experiment `index`, one flow (or nothing) per variant in declaration order.
        case experiment(Int, arms: [String?])
    }
    package var destination: Destination
    /// An `always` row: held-out profiles take it too (only for a flow or `nothing`).
    package var always = false
}

package struct Placement {
    package var name: String
    package var rows: [Row]
}

/// A profile sample: its JSON text, the instant of evaluation and what each attribute holds.
package struct Sample {
    package var json: String
    package var now: Int64
    package var id: String?
    /// By attribute index: the stored value (custom) or JSON value (built-in); nil when absent.
    package var values: [Int: JSONValue]
    /// What the profile's `history` holds, as the README defines it; empty when it has none.
    package var history = SampleHistory()
}

/// A random rule set over a fixed table of attributes (a subset of the language: strings, numbers, bools,
/// sets, dates, versions; and/or/not; history caps over one placement or several; prerequisites;
/// placements with rows, splits and experiments; layers; a holdout).
package struct World {
    package static let attributes: [Attribute] = [
        Attribute(reference: "s", kind: .string, source: .custom("s")),
        Attribute(reference: "n", kind: .number, source: .custom("n")),
        Attribute(reference: "b", kind: .bool, source: .custom("b")),
        Attribute(reference: "d", kind: .date, source: .custom("d")),
        Attribute(reference: "v", kind: .version, source: .custom("v")),
        Attribute(reference: "t", kind: .set, source: .custom("t")),
        Attribute(reference: "profile.country", kind: .string, source: .builtin("country")),
        Attribute(reference: "profile.total_revenue_usd", kind: .number, source: .builtin("total_revenue_usd")),
        Attribute(reference: "profile.installed_at", kind: .date, source: .builtin("installed_at")),
        Attribute(reference: "profile.app_version", kind: .version, source: .builtin("app_version")),
        Attribute(reference: "profile.access_levels", kind: .set, source: .builtin("access_levels")),
        Attribute(reference: "profile.days_since_install", kind: .number, source: .daysSinceInstall),
        Attribute(reference: "profile.customer_user_id", kind: .string, source: .builtin("customer_user_id")),
        Attribute(reference: "now", kind: .date, source: .now),
        // Named like the history subjects: still attributes where no placement name follows.
        Attribute(reference: "shown", kind: .string, source: .custom("shown")),
        Attribute(reference: "last", kind: .date, source: .custom("last")),
    ]

    package static let strings = ["pro", "Pro", "PRO", "a", "b", "ab", "ba", "É", "é", "x", "sports", "premium", "Premium"]
    package static let storedStrings = strings + ["", "abc", "a,b", "xab", "proX"]
    package static let numbers: [(Double, String)] = [(-1, "-1"), (0, "0"), (1, "1"), (2.5, "2.5"), (7, "7"), (10, "10"), (18, "18"), (100, "100"), (-2.75, "-2.75")]
    package static let instants: [Civil.Instant] = [
        .init(year: 2026, month: 11, day: 27, hour: 0, minute: 0, second: 0),
        .init(year: 2026, month: 11, day: 29, hour: 12, minute: 0, second: 0),
        .init(year: 2026, month: 11, day: 30, hour: 23, minute: 59, second: 59),
        .init(year: 2026, month: 11, day: 22, hour: 12, minute: 0, second: 0),
        .init(year: 2026, month: 11, day: 22, hour: 11, minute: 59, second: 59),
        .init(year: 2024, month: 2, day: 29, hour: 0, minute: 0, second: 0),
        .init(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0),
        .init(year: 2026, month: 12, day: 1, hour: 0, minute: 0, second: 0),
    ]
    package static let durations: [(Int64, String)] = [(7 * 86_400_000, "7d"), (12 * 3_600_000, "12h"), (30 * 60_000, "30m"), (45_000, "45s"), (0, "0d"), (86_400_000, "1d")]
    package static let versions = ["1.0.0", "1.0", "1", "v1.2.3", "1.2.3", "1.2.3-beta", "1.2.3-beta.1", "1.2.3-beta.2", "1.2.3+build.5",
                           "2.0.0", "10.0.0", "4.2.0", "4.2", "1.2.3-alpha", "1.2.3-alpha.10", "1.2.3-alpha.9", "1.2.3-0", "1.2.3-rc-1"]
    package static let badVersions = ["4.2.0.1", "V4", "", "01.0.0", "1.2.3-", "1..2", "x", "1.2.3-01"]
    package static let sets = ["a", "a,b", "b,ab", "Premium,x", ",", "a,,b", "sports", "premium", "é,b"]

    package var segments: [Expression] = []
    package var audiences: [Expression] = []
    package var placements: [Placement] = []
    package var experiments: [Experiment] = []
    package var layers: [Layer] = []
    package var holdout: Holdout?
    package var segmentNames: [String] { segments.indices.map { "s\($0)" } }
    package var audienceNames: [String] { audiences.indices.map { "a\($0)" } }

    package static func generate(_ choices: inout FuzzChoices) -> World {
        var world = World()
        // Known first: segments may cap any placement (`shown p1 in 7d < 3`).
        let placementCount = choices.within(1...3)
        let segmentCount = choices.within(1...6)
        for index in 0..<segmentCount {
            world.segments.append(segmentExpression(&choices, below: index, placements: placementCount, depth: 0))
        }
        for _ in 0..<choices.within(1...4) {
            world.audiences.append(audienceExpression(&choices, segments: segmentCount, depth: 0))
        }
        for index in 0..<choices.below(3) {
            let count = choices.within(2...4)
            let weights = World.weights(count, &choices)
            // Names whose order differs from declaration order, and equal weights now and then,
            // so the draw's sort by weight then name matters.
            let names = ["vb", "va", "vd", "vc"]
            let key = drawKey(&choices)
            let sticky = choices.chance(50) ? choices.pick(World.stickyDurations) : nil
            world.experiments.append(Experiment(name: "e\(index)", key: key, sticky: sticky, variants: weights.enumerated().map { ($0.element, names[$0.offset]) }))
        }
        if !world.experiments.isEmpty, choices.chance(45) { world.layers = World.randomLayers(&choices, experiments: world.experiments.count) }
        var splitNumber = 0
        for placementIndex in 0..<placementCount {
            var rows: [Row] = []
            // Only audiences that ask about earlier placements, so none depends on itself.
            let usable = world.audiences(usableIn: placementIndex)
            for _ in 0..<choices.within(1...4) where !usable.isEmpty {
                var row = Row(audience: choices.pick(usable), destination: world.destination(&choices, split: &splitNumber))
                switch row.destination {
                case .flow, .nothing: row.always = choices.chance(20)
                case .split, .experiment: break
                }
                rows.append(row)
            }
            if rows.isEmpty || choices.chance(60) { rows.append(Row(audience: nil, destination: world.destination(&choices, split: &splitNumber))) }
            world.placements.append(Placement(name: "p\(placementIndex)", rows: rows))
        }
        if choices.chance(30) {
            let excepted = (0..<placementCount).filter { _ in choices.chance(30) }
            world.holdout = Holdout(weight: choices.pick([1, 5, 30, 50, 99, 100]), key: drawKey(&choices), excepted: excepted)
        }
        return world
    }

    /// `profile.id` (mostly), `profile.customer_user_id` or the string attribute `s`.
    package static func drawKey(_ choices: inout FuzzChoices) -> WorldKey {
        switch choices.below(6) {
        case 0: return .attribute(attributes.firstIndex { $0.reference == "profile.customer_user_id" }!)
        case 1: return .attribute(attributes.firstIndex { $0.reference == "s" }!)
        case 2: return .id(written: true)
        default: return .id(written: false)
        }
    }

    /// `count` whole weights from 1 adding up to 100.
    package static func weights(_ count: Int, _ choices: inout FuzzChoices) -> [Int] {
        if choices.chance(20), 100 % count == 0 { return Array(repeating: 100 / count, count: count) }
        var weights: [Int] = []
        var left = 100
        for index in 0..<count {
            let weight = index == count - 1 ? left : choices.within(1...(left - (count - index - 1)) / 2 + 1)
            weights.append(weight)
            left -= weight
        }
        return weights
    }

    package func destination(_ choices: inout FuzzChoices, split: inout Int) -> Row.Destination {
        let roll = choices.below(7)
        if roll == 6, !experiments.isEmpty {
            let index = choices.below(experiments.count)
            let arms = experiments[index].variants.map { _ -> String? in choices.chance(15) ? nil : choices.pick(["f_a", "f_b", "f_c"]) }
            return .experiment(index, arms: arms)
        }
        switch roll {
        case 0: return .nothing
        case 1:
            split += 1
            let count = choices.within(2...4)
            let weights = World.weights(count, &choices)
            let flows = ["f_a", "f_b", "f_c", "f_d", "f_e"]
            let nothingAt = choices.chance(40) ? choices.below(count) : -1
            let start = choices.below(flows.count)
            let variants = weights.enumerated().map { index, weight in
                (weight: weight, flow: index == nothingAt ? nil : Optional(flows[(start + index) % flows.count]))
            }
            return .split(id: "sp\(split)", variants: variants, key: choices.chance(25) ? World.drawKey(&choices) : .id(written: false))
        default:
            return .flow(choices.pick(["f_a", "f_b", "f_c"]))
        }
    }

    package static func segmentExpression(_ choices: inout FuzzChoices, below segment: Int, placements: Int, depth: Int) -> Expression {
        if depth >= 3 || choices.chance(40) {
            if segment > 0 && choices.chance(20) { return .segment(choices.below(segment)) }
            if choices.chance(15) { return .prerequisite(prerequisite(&choices, placements: placements)) }
            if choices.chance(25) { return .comparison(cap(&choices, placements: placements)) }
            return .comparison(comparison(&choices))
        }
        func inner() -> Expression { segmentExpression(&choices, below: segment, placements: placements, depth: depth + 1) }
        switch choices.below(4) {
        case 0: return .not(inner())
        case 1: return .group(inner())
        case 2: return .and(inner(), inner())
        default: return .or(inner(), inner())
        }
    }

    package static func audienceExpression(_ choices: inout FuzzChoices, segments: Int, depth: Int) -> Expression {
        if depth >= 2 || choices.chance(45) { return .segment(choices.below(segments)) }
        switch choices.below(4) {
        case 0: return .not(audienceExpression(&choices, segments: segments, depth: depth + 1))
        case 1: return .group(audienceExpression(&choices, segments: segments, depth: depth + 1))
        case 2: return .and(audienceExpression(&choices, segments: segments, depth: depth + 1), audienceExpression(&choices, segments: segments, depth: depth + 1))
        default: return .or(audienceExpression(&choices, segments: segments, depth: depth + 1), audienceExpression(&choices, segments: segments, depth: depth + 1))
        }
    }

    package static func literal(_ kind: Kind, _ choices: inout FuzzChoices) -> Literal {
        switch kind {
        case .string, .set: return .string(choices.pick(strings))
        case .number:
            let (value, text) = choices.pick(numbers)
            return .number(value, text: text)
        case .bool: return .bool(choices.chance(50))
        case .date:
            if choices.chance(35) {
                let (offset, text) = choices.pick(durations)
                switch choices.below(3) {
                case 0: return .relative(0, text: "now")
                case 1: return .relative(-offset, text: "now - " + text)
                default: return .relative(offset, text: "now + " + text)
                }
            }
            let instant = choices.pick(instants)
            if instant.isMidnight && choices.chance(50) { return .date(instant.milliseconds, text: instant.dateText) }
            return .date(instant.milliseconds, text: instant.rfc3339)
        case .version:
            let text = choices.pick(versions)
            return .version(Version(text)!, text: text)
        }
    }

    /// A sorted pair for `between` (both absolute or both relative for dates).
    package static func bounds(_ kind: Kind, _ choices: inout FuzzChoices) -> [Literal] {
        var first = literal(kind, &choices)
        var second = literal(kind, &choices)
        if kind == .date {
            if case .relative = first, case .date = second { second = first }
            if case .date = first, case .relative = second { first = second }
        }
        return order(first, second) ? [first, second] : [second, first]
    }

    package static func order(_ a: Literal, _ b: Literal) -> Bool {
        switch (a, b) {
        case (.number(let x, _), .number(let y, _)): return x <= y
        case (.date(let x, _), .date(let y, _)), (.relative(let x, _), .relative(let y, _)): return x <= y
        case (.version(let x, _), .version(let y, _)): return Version.order(x, y) <= 0
        default: return true
        }
    }

    package static func list(_ kind: Kind, _ choices: inout FuzzChoices) -> [Literal] {
        (0..<choices.within(1...3)).map { _ in literal(kind, &choices) }
    }

    package static func comparison(_ choices: inout FuzzChoices) -> Comparison {
        let index = choices.below(attributes.count)
        let subject = Subject.attribute(index)
        let kind = attributes[index].kind
        var allowed: [Comparison.Operator]
        switch kind {
        case .string: allowed = [.equal, .notEqual, .inList, .notInList, .contains, .startsWith, .endsWith, .matches, .matches, .isSet, .isNotSet]
        case .number: allowed = [.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual, .between, .inList, .notInList, .isSet, .isNotSet]
        case .bool: allowed = [.equal, .notEqual, .isSet, .isNotSet]
        case .date: allowed = [.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual, .between, .isSet, .isNotSet]
        case .version: allowed = [.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual, .between, .inList, .notInList, .isSet, .isNotSet]
        case .set: allowed = [.has, .hasAny, .hasAll, .hasNone, .isSet, .isNotSet]
        }
        switch attributes[index].source {
        case .now, .daysSinceInstall: allowed.removeAll { $0 == .isSet || $0 == .isNotSet }
        default: break
        }
        let op = choices.pick(allowed)
        if op == .matches {
            // The pattern is written for its `ignoring case` (which lowercases its literals).
            let fold = choices.chance(35)
            let (text, meaning) = PatternGrammar(ignoringCase: fold).generate(&choices)
            return Comparison(subject: subject, op: op, literals: [.pattern(text, meaning)], foldCase: fold)
        }
        let literals: [Literal]
        switch op {
        case .isSet, .isNotSet: literals = []
        case .between: literals = bounds(kind, &choices)
        case .inList, .notInList, .hasAny, .hasAll, .hasNone: literals = list(kind, &choices)
        default: literals = [literal(kind, &choices)]
        }
        let foldable = (kind == .string || kind == .set) && op != .isSet && op != .isNotSet
        return Comparison(subject: subject, op: op, literals: literals, foldCase: foldable && choices.chance(30))
    }

    /// A comparison over the history of one or several of `placements` placements: a count of
    /// showings (with or without a window, any of the six operators, 0 to 100 per placement)
    /// or the last showing (any date operator).
    package static func cap(_ choices: inout FuzzChoices, placements: Int) -> Comparison {
        var group = PlacementGroup(indices: [choices.below(placements)], bracketed: choices.chance(10))
        if placements > 1, choices.chance(40) {
            var left = Array(0..<placements)
            group.indices = (0..<choices.within(2...placements)).map { _ in left.remove(at: choices.below(left.count)) }
        }
        if choices.chance(60) {
            let window = choices.chance(75) ? choices.pick(windows) : nil
            let op = choices.pick([Comparison.Operator.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual])
            let limit = 100 * group.indices.count
            let count = choices.pick([0, 1, 2, 3, 5, 99, 100, 101, 150, limit - 1, limit].filter { $0 <= limit })
            return Comparison(subject: .shownCount(group, window: window), op: op,
                              literals: [.number(Double(count), text: "\(count)")], foldCase: false)
        }
        let op = choices.pick([Comparison.Operator.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual, .between, .isSet, .isNotSet])
        let literals: [Literal]
        switch op {
        case .isSet, .isNotSet: literals = []
        case .between: literals = bounds(.date, &choices)
        default: literals = [historyDate(&choices)]
        }
        return Comparison(subject: .lastShown(group), op: op, literals: literals, foldCase: false)
    }

    /// A date literal for `last shown`: mostly `now - D` for a window D, else any date literal.
    package static func historyDate(_ choices: inout FuzzChoices) -> Literal {
        guard choices.chance(60) else { return literal(.date, &choices) }
        let window = choices.pick(windows)
        return .relative(-window.milliseconds, text: "now - " + window.text)
    }

    // MARK: - Text

    package var rulesText: String {
        var lines = [
            "attribute s: string", "attribute n: number", "attribute b: bool",
            "attribute d: date", "attribute v: version", "attribute t: set",
            "attribute shown: string", "attribute last: date",
        ]
        for (index, expression) in segments.enumerated() { lines.append("segment s\(index) = " + text(expression)) }
        for (index, expression) in audiences.enumerated() { lines.append("audience a\(index) = " + text(expression, audience: true)) }
        for experiment in experiments {
            let sticky = experiment.sticky.map { " sticky " + $0.text } ?? ""
            lines.append("experiment \(experiment.name)\(experiment.key.text)\(sticky) {")
            for variant in experiment.variants { lines.append("  \(variant.weight)% \(variant.name)") }
            lines.append("}")
        }
        lines += layersText
        if let holdout {
            let excepted = holdout.excepted.isEmpty ? "" : " except " + holdout.excepted.map { placements[$0].name }.joined(separator: ", ")
            lines.append("holdout h \(holdout.weight)%\(holdout.key.text)\(excepted)")
        }
        for placement in placements {
            lines.append("placement \(placement.name) {")
            for row in placement.rows {
                let name = (row.always ? "always " : "") + (row.audience.map { "a\($0)" } ?? "everyone")
                switch row.destination {
                case .nothing: lines.append("  \(name) -> nothing")
                case .flow(let id): lines.append("  \(name) -> flow \"\(id)\"")
                case .split(let id, let variants, let key):
                    lines.append("  \(name) -> split \"\(id)\"\(key.text) {")
                    for variant in variants { lines.append("    \(variant.weight)% -> " + (variant.flow.map { "flow \"\($0)\"" } ?? "nothing")) }
                    lines.append("  }")
                case .experiment(let index, let arms):
                    let experiment = experiments[index]
                    lines.append("  \(name) -> \(experiment.name) {")
                    for (variant, arm) in zip(experiment.variants, arms) { lines.append("    \(variant.name) -> " + (arm.map { "flow \"\($0)\"" } ?? "nothing")) }
                    lines.append("  }")
                }
            }
            lines.append("}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    package func text(_ expression: Expression, audience: Bool = false) -> String {
        switch expression {
        case .comparison(let comparison): return World.text(comparison)
        case .prerequisite(let prerequisite): return text(prerequisite)
        case .segment(let index): return "s\(index)"
        case .not(let inner): return "not " + wrapped(inner, audience: audience)
        case .and(let a, let b): return wrapped(a, audience: audience, inAnd: true) + " and " + wrapped(b, audience: audience, inAnd: true)
        case .or(let a, let b): return "(" + text(a, audience: audience) + " or " + text(b, audience: audience) + ")"
        case .group(let inner): return "(" + text(inner, audience: audience) + ")"
        }
    }

    /// Operands of `not` and `and` are parenthesised unless they bind at least as tightly.
    package func wrapped(_ expression: Expression, audience: Bool, inAnd: Bool = false) -> String {
        switch expression {
        case .segment, .group, .or: return text(expression, audience: audience)
        case .not: return text(expression, audience: audience)
        case .and where inAnd: return text(expression, audience: audience)
        default: return "(" + text(expression, audience: audience) + ")"
        }
    }

    package static func text(_ comparison: Comparison) -> String {
        let lhs = comparison.subject.text
        let items = comparison.literals.map(\.text)
        let list = "[" + items.joined(separator: ", ") + "]"
        let fold = comparison.foldCase ? " ignoring case" : ""
        switch comparison.op {
        case .equal: return "\(lhs) == \(items[0])\(fold)"
        case .notEqual: return "\(lhs) != \(items[0])\(fold)"
        case .less: return "\(lhs) < \(items[0])"
        case .lessEqual: return "\(lhs) <= \(items[0])"
        case .greater: return "\(lhs) > \(items[0])"
        case .greaterEqual: return "\(lhs) >= \(items[0])"
        case .between: return "\(lhs) between \(items[0]) and \(items[1])"
        case .inList: return "\(lhs) in \(list)\(fold)"
        case .notInList: return "\(lhs) not in \(list)\(fold)"
        case .contains: return "\(lhs) contains \(items[0])\(fold)"
        case .startsWith: return "\(lhs) starts with \(items[0])\(fold)"
        case .endsWith: return "\(lhs) ends with \(items[0])\(fold)"
        case .matches: return "\(lhs) matches \(items[0])\(fold)"
        case .has: return "\(lhs) has \(items[0])\(fold)"
        case .hasAny: return "\(lhs) has any \(list)\(fold)"
        case .hasAll: return "\(lhs) has all \(list)\(fold)"
        case .hasNone: return "\(lhs) has none \(list)\(fold)"
        case .isSet: return "\(lhs) is set"
        case .isNotSet: return "\(lhs) is not set"
        }
    }

    // MARK: - Profiles

    /// A random profile: each attribute missing, fitting, or mistyped.
    package func profile(_ choices: inout FuzzChoices) -> Sample {
        let now = choices.pick(World.instants).milliseconds + Int64(choices.pick([0, 1, -1, 500]))
        var values: [Int: JSONValue] = [:]
        var fields: [JSONMember] = []
        var custom: [JSONMember] = []
        let id: String? = choices.chance(85) ? "u\(choices.below(1000))" : nil
        if let id { fields.append(JSONMember(key: "id", value: .string(id))) }
        for (index, attribute) in World.attributes.enumerated() {
            let value: JSONValue?
            switch attribute.source {
            case .now, .daysSinceInstall: continue
            case .custom(let key):
                value = World.customValue(attribute.kind, &choices)
                if let value { custom.append(JSONMember(key: key, value: value)) }
            case .builtin(let field):
                value = World.builtinValue(attribute.kind, &choices)
                if let value { fields.append(JSONMember(key: field, value: value)) }
            }
            if let value, value != .null { values[index] = value }
        }
        if !custom.isEmpty { fields.append(JSONMember(key: "custom_attributes", value: .object(custom))) }
        let drawn = history(now: now, &choices)
        if let json = drawn.json { fields.append(JSONMember(key: "history", value: json)) }
        return Sample(json: JSONWriter.write(.object(fields)), now: now, id: id, values: values, history: drawn.meaning)
    }

    /// A stored custom value (string or number), or nil for none.
    package static func customValue(_ kind: Kind, _ choices: inout FuzzChoices) -> JSONValue? {
        let roll = choices.below(10)
        if roll == 0 { return nil }
        let mistyped = roll == 1
        switch kind {
        case .string: return mistyped ? .number(1) : .string(nonEmpty(choices.pick(storedStrings)))
        case .number: return mistyped ? .string("10") : .number(choices.pick(numbers).0)
        case .bool: return mistyped ? choices.pick([.number(2), .string("true"), .number(0.5)]) : .number(choices.chance(50) ? 1 : 0)
        case .date: return mistyped ? .string("2026-11-29") : .number(Double(choices.pick(instants).milliseconds + Int64(choices.pick([0, 1, -1]))))
        case .version: return mistyped ? choices.pick([.number(1), .string(nonEmpty(choices.pick(badVersions)))]) : .string(choices.pick(versions))
        case .set: return mistyped ? .number(3) : .string(choices.pick(sets))
        }
    }

    package static func nonEmpty(_ text: String) -> String { text.isEmpty ? "z" : text }

    /// A built-in field's JSON value (nil: absent; `.null`: null).
    package static func builtinValue(_ kind: Kind, _ choices: inout FuzzChoices) -> JSONValue? {
        let roll = choices.below(12)
        if roll == 0 { return nil }
        if roll == 1 { return .null }
        let mistyped = roll == 2
        switch kind {
        case .string: return mistyped ? .number(1) : .string(choices.pick(storedStrings))
        case .number: return mistyped ? choices.pick([.string("5"), .bool(true)]) : .number(choices.pick(numbers).0)
        case .bool: return .bool(true)
        case .date:
            if mistyped { return choices.pick([.string("yesterday"), .number(1_795_953_600_000), .string("2026-13-01")]) }
            let instant = choices.pick(instants)
            return .string(instant.rfc3339)
        case .version: return mistyped ? choices.pick([.number(4), .string(choices.pick(badVersions))]) : .string(choices.pick(versions))
        case .set:
            if mistyped { return choices.pick([.string("premium"), .array([.number(1)])]) }
            let items = ["premium", "Premium", "a", "b", "x", ""]
            return .array((0..<choices.within(0...3)).map { _ in .string(choices.pick(items)) })
        }
    }
}
