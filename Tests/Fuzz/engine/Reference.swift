import TargetingBase
import TargetingFuzzSupport
import TargetingEngine

/// A deliberately simple evaluator written from the README's text (two-valued comparisons, splits, the edge cases), sharing
/// nothing with the engine but MD5 (tested on its own against RFC 1321):
/// - two-valued: a comparison on a missing or mistyped value is false, whatever the operator
///   (`!=` and `not in` included); `is set` / `is not set` test presence only;
/// - no coercion: a stored number never fits a string, `bool` is only the numbers 1 and 0,
///   a custom `date` is a number of Unix ms, a `version` must parse;
/// - sets split on `,` without trimming; `ignoring case` compares lowercase mappings;
/// - `matches`: the whole string against the pattern's meaning as `PatternGrammar` wrote it
///   down, by `ReferenceMatcher` (never `MatchPattern`);
/// - placements: the first matching row decides; splits draw by Adapty's MD5 algorithm;
/// - Experiments and splits draw on their key (a profile without a string value for
///   a key other than `profile.id` skips the row); a held-out profile takes only `always` rows
///   and `everyone`;
/// - history: `shown P in D` counts the distinct kept instants in `(now − D, now]`,
///   `shown P` all of them, 0 without history; `last shown P` is the latest kept instant, not
///   set without one; a row of a sticky experiment takes a profile that is not held out and
///   whose assignment is live (`at > now − D`) and names one of its variants, whatever its
///   audience and key, with the assigned variant; rows above it still decide first;
/// - a list of placements `shown [P1, P2]` adds up each one's count, and `last shown [P1, P2]`
///   is the latest instant of any of them;
/// - a prerequisite `placement P -> OUTCOME` decides P here (same profile, now and history)
///   and is true when the decision is one of the outcomes: the flow or `nothing` shown, the
///   variant that decided, or no row matching; false when P cannot decide;
/// - a layer draws `"<layer>-<key value>"` once, and its experiments take consecutive shares of
///   the 100 buckets in the order written: a row of an experiment whose share does not hold the
///   profile's bucket, or of a layer whose key the profile lacks (`profile.id` too), does not
///   match, sticky assignment or not.
struct Reference {
    let world: World
    let sample: Sample

    /// What `subject` reads for this profile. History as the README defines it: a count of
    /// showings in `(now − D, now]` (or of all kept ones), 0 without history, never missing;
    /// the last showing is the latest kept instant, missing without one.
    func read(_ subject: Subject) -> Reading {
        switch subject {
        case .attribute(let index): return read(index)
        case .shownCount(let group, let window):
            let counts = group.indices.map { sample.history.count("p\($0)", window: window?.milliseconds, now: sample.now) }
            return .number(Double(counts.reduce(0, +)))
        case .lastShown(let group):
            return group.indices.compactMap { sample.history.last("p\($0)") }.max().map(Reading.date) ?? .missing
        }
    }

    func read(_ index: Int) -> Reading {
        let attribute = World.attributes[index]
        switch attribute.source {
        case .now: return .date(sample.now)
        case .daysSinceInstall:
            // Derived from `installed_at`: set only when that is a date (missing, mistyped or
            // unparsable leaves it missing).
            guard case .date(let at) = read(installedIndex) else { return .missing }
            let elapsed = sample.now - at
            let day: Int64 = 86_400_000
            let days = elapsed >= 0 ? elapsed / day : -((-elapsed + day - 1) / day)
            return .number(Double(days))
        case .custom:
            guard let value = sample.values[index] else { return .missing }
            switch (attribute.kind, value) {
            case (.string, .string(let text)): return .string(text)
            case (.number, .number(let number)): return .number(number)
            case (.bool, .number(let number)): return number == 1 ? .bool(true) : number == 0 ? .bool(false) : .mistyped
            case (.date, .number(let number)): return .date(Int64(number.rounded(.down)))
            case (.version, .string(let text)): return Version(text).map(Reading.version) ?? .mistyped
            case (.set, .string(let text)): return .set(text.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
            default: return .mistyped
            }
        case .builtin:
            guard let value = sample.values[index] else { return .missing }
            switch (attribute.kind, value) {
            case (.string, .string(let text)): return .string(text)
            case (.number, .number(let number)): return .number(number)
            case (.date, .string(let text)):
                guard let instant = World.instants.first(where: { $0.rfc3339 == text }) else { return .mistyped }
                return .date(instant.milliseconds)
            case (.version, .string(let text)): return Version(text).map(Reading.version) ?? .mistyped
            case (.set, .array(let items)):
                var texts: [String] = []
                for item in items {
                    guard case .string(let text) = item else { return .mistyped }
                    texts.append(text)
                }
                return .set(texts)
            default: return .mistyped
            }
        }
    }

    var installedIndex: Int { World.attributes.firstIndex { $0.reference == "profile.installed_at" }! }

    func literalValue(_ literal: Literal) -> Reading {
        switch literal {
        case .string(let text): return .string(text)
        case .number(let value, _): return .number(value)
        case .bool(let value): return .bool(value)
        case .date(let ms, _): return .date(ms)
        case .relative(let offset, _): return .date(sample.now + offset)
        case .version(let version, _): return .version(version)
        case .pattern: fatalError("a pattern is not a value")
        }
    }

    /// -1, 0, 1 for two fitting values of one type.
    func order(_ a: Reading, _ b: Reading) -> Int {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x < y ? -1 : x == y ? 0 : 1
        case (.date(let x), .date(let y)): return x < y ? -1 : x == y ? 0 : 1
        case (.version(let x), .version(let y)): return Version.order(x, y)
        case (.bool(let x), .bool(let y)): return x == y ? 0 : 1
        case (.string(let x), .string(let y)): return x == y ? 0 : 1
        default: fatalError("unordered readings")
        }
    }

    func fold(_ text: String, _ on: Bool) -> String { on ? text.lowercased() : text }

    func evaluate(_ comparison: Comparison) -> Bool {
        let value = read(comparison.subject)
        switch comparison.op {
        case .isSet: return value.isPresent
        case .isNotSet: return !value.isPresent
        default: break
        }
        switch value {
        case .missing, .mistyped: return false
        default: break
        }
        if comparison.op == .matches {
            // The whole (trimmed) string, lowercased under `ignoring case`, by the
            // reference matcher over the grammar's meaning of the pattern.
            guard case .string(let text) = value, case .pattern(_, let meaning) = comparison.literals[0] else { return false }
            return ReferenceMatcher.matches(meaning, value: text, ignoringCase: comparison.foldCase)
        }
        let literals = comparison.literals.map(literalValue)
        let fold = comparison.foldCase
        func equal(_ literal: Reading) -> Bool {
            if case .string(let x) = value, case .string(let y) = literal { return self.fold(x, fold) == self.fold(y, fold) }
            return order(value, literal) == 0
        }
        func text() -> String { if case .string(let x) = value { return self.fold(x, fold) } else { fatalError() } }
        func items() -> [String] { if case .set(let x) = value { return x.map { self.fold($0, fold) } } else { fatalError() } }
        func literalText(_ index: Int) -> String { if case .string(let x) = literals[index] { return self.fold(x, fold) } else { fatalError() } }
        switch comparison.op {
        case .equal: return equal(literals[0])
        case .notEqual: return !equal(literals[0])
        case .less: return order(value, literals[0]) < 0
        case .lessEqual: return order(value, literals[0]) <= 0
        case .greater: return order(value, literals[0]) > 0
        case .greaterEqual: return order(value, literals[0]) >= 0
        case .between: return order(value, literals[0]) >= 0 && order(value, literals[1]) <= 0
        case .inList: return literals.contains(where: equal)
        case .notInList: return !literals.contains(where: equal)
        case .contains: return Reference.bytes(text()).contains(Reference.bytes(literalText(0)))
        case .startsWith: return text().utf8.starts(with: literalText(0).utf8)
        case .endsWith: return text().utf8.reversed().starts(with: literalText(0).utf8.reversed())
        case .has: return items().contains(literalText(0))
        case .hasAny: return literals.indices.contains { items().contains(literalText($0)) }
        case .hasAll: return literals.indices.allSatisfy { items().contains(literalText($0)) }
        case .hasNone: return !literals.indices.contains { items().contains(literalText($0)) }
        case .isSet, .isNotSet, .matches: fatalError()
        }
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func evaluate(_ expression: Expression) -> Bool {
        switch expression {
        case .comparison(let comparison): return evaluate(comparison)
        case .prerequisite(let prerequisite): return holds(prerequisite)
        case .segment(let index): return segment(index)
        case .not(let inner): return !evaluate(inner)
        case .and(let a, let b): return evaluate(a) && evaluate(b)
        case .or(let a, let b): return evaluate(a) || evaluate(b)
        case .group(let inner): return evaluate(inner)
        }
    }

    func segment(_ index: Int) -> Bool { evaluate(world.segments[index]) }
    func audience(_ index: Int) -> Bool { evaluate(world.audiences[index]) }

    /// What a key gives: the text drawn on, "" for a missing id (an error where a draw must
    /// decide), nil for another key the profile has no string for.
    func keyValue(_ key: WorldKey) -> String?? {
        switch key {
        case .id: return .some(sample.id)
        case .attribute(let index):
            if case .string(let text) = read(index) { return .some(.some(text)) }
            return .none
        }
    }

    /// r in 0..<100 for `"<name>-<value>"`.
    static func bucket(_ name: String, _ value: String) -> Int {
        let digest = MD5.digest(Array("\(name)-\(value)".utf8))
        var number: UInt64 = 0
        for byte in digest[8..<16] { number = number << 8 | UInt64(byte) }
        return Int(number % 100)
    }

    /// Whether the holdout holds the profile out of placement `index`.
    func heldOut(_ index: Int) -> Bool {
        guard let holdout = world.holdout, !holdout.excepted.contains(index) else { return false }
        guard case .some(.some(let value)) = keyValue(holdout.key) else { return false }
        return Reference.bucket("h", value) < holdout.weight
    }

    /// For a row of experiment `index` in a placement where the profile is not held out: the
    /// variant (its index) that the profile's recorded assignment gives while it sticks: the
    /// experiment is sticky, the assignment is younger than the duration at now
    /// (`at > now − D`, future ones too), and it names a variant the experiment has.
    func stickyVariant(_ index: Int) -> Int? {
        let experiment = world.experiments[index]
        guard let sticky = experiment.sticky, let assignment = sample.history.assigned[experiment.name],
              assignment.at > sample.now - sticky.milliseconds else { return nil }
        return experiment.variants.firstIndex { $0.name == assignment.variant }
    }

    /// Whether placement `index`, decided here, gives one of the prerequisite's outcomes.
    func holds(_ prerequisite: Prerequisite) -> Bool {
        guard let decided = decision(prerequisite.placement) else { return false }
        return world.outcomes(prerequisite).contains { outcome in
            switch outcome {
            case .noMatch: return decided.shown == nil
            case .destination(let id):
                guard case .some(let shown) = decided.shown else { return false }
                return shown == id
            case .variant(let experiment, let variant): return decided.variant.map { $0.experiment == experiment && $0.variant == variant } ?? false
            }
        }
    }

    /// Whether the profile may enter experiment `index` as far as layers go: always outside a
    /// layer; inside one, when it has the layer's key and its bucket lies in the experiment's share.
    func entersLayer(_ index: Int) -> Bool {
        guard let layer = world.layer(of: index) else { return true }
        guard case .some(.some(let value)) = keyValue(layer.key) else { return false }
        let r = Reference.bucket(layer.name, value)
        var start = 0
        for member in layer.members {
            if member.experiment == index { return start <= r && r < start + member.weight }
            start += member.weight
        }
        fatalError("experiment not in its layer")
    }

    /// A decision as the reference reaches it.
    struct Decided {
        /// The row's audience as printed (`everyone` for an `everyone` row).
        var row: String
        /// What it shows: a flow id, or nil for `nothing`; nil outside when no row matched.
        var shown: String??
        /// The split that drew it.
        var split: String?
        /// The experiment and variant that decided it.
        var variant: (experiment: Int, variant: Int)?
        var sticky = false
    }

    /// The decision for placement `index`; nil when it cannot be reached (a draw on
    /// `profile.id` for a profile without one).
    func decision(_ index: Int) -> Decided? {
        let placement = world.placements[index]
        let isHeldOut = heldOut(index)
        for row in placement.rows {
            let name = row.audience.map { "a\($0)" } ?? "everyone"
            if case .experiment(let experimentIndex, _) = row.destination, !entersLayer(experimentIndex) { continue }
            // A sticky assignment takes the row whatever its audience (held-out profiles and
            // `always` rows follow the holdout's rules alone).
            if !isHeldOut, case .experiment(let experimentIndex, let arms) = row.destination, let variant = stickyVariant(experimentIndex) {
                return Decided(row: name, shown: .some(arms[variant]), variant: (experimentIndex, variant), sticky: true)
            }
            if let audience = row.audience {
                guard !isHeldOut || row.always, self.audience(audience) else { continue }
            }
            switch row.destination {
            case .nothing: return Decided(row: name, shown: .some(nil))
            case .flow(let id): return Decided(row: name, shown: .some(id))
            case .split(let id, let variants, let key):
                guard case .some(let value) = keyValue(key) else { continue }
                guard let value else { return nil }
                var r = Reference.bucket(id, value)
                let sorted = variants.sorted { a, b in
                    if a.weight != b.weight { return a.weight < b.weight }
                    return Array((a.flow ?? "").utf8).lexicographicallyPrecedes(Array((b.flow ?? "").utf8))
                }
                for variant in sorted {
                    r -= variant.weight
                    if r < 0 { return Decided(row: name, shown: .some(variant.flow), split: id) }
                }
                fatalError("weights do not sum to 100")
            case .experiment(let experimentIndex, let arms):
                let experiment = world.experiments[experimentIndex]
                guard case .some(let value) = keyValue(experiment.key) else { continue }
                guard let value else { return nil }
                var r = Reference.bucket(experiment.name, value)
                let order = experiment.variants.indices.sorted { a, b in
                    let x = experiment.variants[a], y = experiment.variants[b]
                    if x.weight != y.weight { return x.weight < y.weight }
                    return Array(x.name.utf8).lexicographicallyPrecedes(Array(y.name.utf8))
                }
                for variant in order {
                    r -= experiment.variants[variant].weight
                    if r < 0 { return Decided(row: name, shown: .some(arms[variant]), variant: (experimentIndex, variant)) }
                }
                fatalError("weights do not sum to 100")
            }
        }
        return Decided(row: "-", shown: nil)
    }

    /// The decision, in the form `FuzzEngine.describe` prints.
    func decide(_ index: Int) -> String {
        guard let decided = decision(index) else { return "error" }
        guard case .some(let shown) = decided.shown else { return "- no match - - -" }
        let variant = decided.variant.map { world.experiments[$0.experiment].name + "." + world.experiments[$0.experiment].variants[$0.variant].name } ?? "-"
        return "\(decided.row) " + (shown.map { "flow \"\($0)\"" } ?? "nothing") + " \(decided.split ?? "-") \(variant) -" + (decided.sticky ? " sticky" : "")
    }
}

extension Array where Element == UInt8 {
    func contains(_ needle: [UInt8]) -> Bool {
        if needle.isEmpty { return true }
        guard needle.count <= count else { return false }
        for start in 0...(count - needle.count) where self[start..<(start + needle.count)].elementsEqual(needle) { return true }
        return false
    }
}
