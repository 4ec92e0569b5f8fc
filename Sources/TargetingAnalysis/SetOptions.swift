import TargetingBase

/// The options of a set field.
///
/// `has` tests only ask, for each exact literal, whether the set holds it, and for each
/// `ignoring case` literal, whether some member lowercases to it. Every combination of those
/// facts (an exact member implies its lowercase class) is offered, as a set built to meet it or
/// else as an abstract vector. With more than `factLimit` facts only a few sets are offered and
/// the table is marked incomplete.
enum SetOptions {
    /// Most facts enumerated in full.
    static let factLimit = 12

    /// Offers the options of a set field whose comparisons are `builder.tests`; `custom` when
    /// the set is stored as a comma-separated custom attribute (which cannot be empty, so it gets
    /// a member no test asks about, an `allowed` one if possible).
    static func fill(_ builder: inout OptionTableBuilder, custom: Bool, allowed: [String]) {
        let tests = builder.tests.map(\.test)
        var exact: [[UInt8]] = []
        var classes: [[UInt8]] = []
        for test in tests {
            let (texts, fold): ([String], Bool)
            switch test.kind {
            case .members(let members, let flag): (texts, fold) = (members.literals, flag)
            case .presence: continue
            case .text, .number, .bool, .date, .version:
                // Not a test of a set (the checker rejects it): the options are not modelled for
                // it, so the table cannot claim to be complete.
                builder.isComplete = false
                continue
            }
            for text in texts.map({ Array($0.utf8) }) {
                if fold { if !classes.contains(text) { classes.append(text) } } else if !exact.contains(text) { exact.append(text) }
            }
        }
        let filler = (allowed + TextOptions.fillers).first { name in
            !exact.contains(Array(name.utf8)) && !classes.contains(Array(CaseFolding.lowercase(name).utf8))
        } ?? "other-member"

        let count = exact.count + classes.count
        guard count <= factLimit else {
            builder.isComplete = false
            builder.offer(members([], custom: custom, filler: filler))
            for text in exact { builder.offer(members([text], custom: custom, filler: filler)) }
            for text in classes { builder.offer(members([text], custom: custom, filler: filler)) }
            builder.offer(members(exact, custom: custom, filler: filler))
            return
        }

        let classOfExact = exact.map { text in classes.firstIndex(of: Array(CaseFolding.lowercase(String(decoding: text, as: UTF8.self)).utf8)) }
        func vector(_ inExact: [Bool], _ inClass: [Bool]) -> [Bool] {
            tests.map { test in
                func holds(_ text: String, _ fold: Bool) -> Bool {
                    let bytes = Array(text.utf8)
                    return fold ? classes.firstIndex(of: bytes).map { inClass[$0] } ?? false
                                : exact.firstIndex(of: bytes).map { inExact[$0] } ?? false
                }
                let raw: Bool
                switch test.kind {
                case .members(let members, let fold):
                    switch members {
                    case .has(let text): raw = holds(text, fold)
                    case .hasAny(let list): raw = list.contains { holds($0, fold) }
                    case .hasAll(let list): raw = list.allSatisfy { holds($0, fold) }
                    case .hasNone(let list): raw = !list.contains { holds($0, fold) }
                    }
                case .presence: raw = true
                case .text, .number, .bool, .date, .version:
                    // On a set the engine finds it false, negated or not (the table is incomplete).
                    return false
                }
                return raw != test.negated
            }
        }

        let masks = (0..<(1 << count)).sorted { $0.nonzeroBitCount < $1.nonzeroBitCount || ($0.nonzeroBitCount == $1.nonzeroBitCount && $0 < $1) }
        for mask in masks {
            let inExact = exact.indices.map { mask & (1 << $0) != 0 }
            let inClass = classes.indices.map { mask & (1 << (exact.count + $0)) != 0 }
            if exact.indices.contains(where: { inExact[$0] && classOfExact[$0].map { !inClass[$0] } == true }) { continue }
            let target = vector(inExact, inClass)
            if builder.has(target) { continue }
            var chosen = exact.indices.filter { inExact[$0] }.map { exact[$0] }
            var realizable = true
            for (index, text) in classes.enumerated() where inClass[index] {
                if exact.indices.contains(where: { inExact[$0] && classOfExact[$0] == index }) { continue }
                let variant = CaseVariants.of(String(decoding: text, as: UTF8.self)).first { !exact.contains(Array($0.utf8)) }
                guard let variant else { realizable = false; break }
                chosen.append(Array(variant.utf8))
            }
            if realizable { builder.offer(members(chosen, custom: custom, filler: filler)) }
            if !builder.has(target) { builder.offerAbstract(target) }
        }
    }

    /// A set value holding `chosen`; a custom set cannot be empty, so it gets an unrelated member.
    static func members(_ chosen: [[UInt8]], custom: Bool, filler: String) -> ExampleValue {
        var items = chosen.map { JSONValue.string(String(decoding: $0, as: UTF8.self)) }
        if items.isEmpty, custom { items = [.string(filler)] }
        return .json(.array(items))
    }
}
