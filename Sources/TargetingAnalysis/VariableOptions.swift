import TargetingBase
import TargetingEngine
import TargetingProfiles

/// Builds the option table of one variable at one instant, by the type its comparisons read.
///
/// Every table starts with the field absent and, where the field has a type, ends with a value
/// that does not fit it, so the "missing" and "does not fit" classes are covered.
enum VariableOptions {
    /// The options of `variable` with `now` at `now`, evaluating at most `budget` comparisons.
    static func table(_ variable: SearchVariable, graph: ConditionGraph, now: Int64, budget: Int) -> OptionTable {
        let tests = variable.atoms.compactMap { id -> (slot: Slot, test: CompiledTest)? in
            graph.atoms[id].slot.map { ($0, graph.atoms[id].test) }
        }
        let probes = variable.atoms.compactMap { graph.atoms[$0].sticky }
        var builder = OptionTableBuilder(field: variable.field, tests: tests, probes: probes, now: now, budget: budget)
        builder.offer(.missing)
        let kinds = tests.map(\.test.kind)
        switch variable.field {
        case .custom:
            let type = variable.slots.first?.type
            fillCustom(&builder, type: type, kinds: kinds, allowed: variable.allowed, now: now)
        case .builtin(let name) where BuiltinField.isDerivationSource(name):
            fillDerived(&builder, name: name, now: now)
            // A source that is not a date: set itself, while the derived field is not.
            builder.offer(.json(.bool(true)))
        case .builtin(let name):
            let type = variable.slots.first?.type ?? BuiltinField.all[name]?.type ?? .string
            fillBuiltin(&builder, type: type, kinds: kinds, allowed: variable.allowed, now: now)
            builder.offer(.json(.bool(true)))
        case .history:
            HistoryOptions.fillShown(&builder, now: now)
        case .assignment:
            HistoryOptions.fillAssignment(&builder, now: now)
        }
        return builder.table()
    }

    /// Whether the options of `variable` depend on the instant: it compares with `now ± d` or
    /// reads a field derived from the clock.
    static func isTimeDependent(_ variable: SearchVariable, graph: ConditionGraph) -> Bool {
        switch variable.field {
        case .history, .assignment: return true  // instants are placed relative to `now`
        case .builtin, .custom: break
        }
        return variable.atoms.contains { id in
            let atom = graph.atoms[id]
            if case .builtin(let field)? = atom.slot?.target, BuiltinField.derivation(of: field) != nil { return true }
            return DateCandidates.operands([atom.test.kind]).relative.isEmpty == false
        }
    }

    static func fillCustom(_ builder: inout OptionTableBuilder, type: ValueType?, kinds: [CompiledTest.Kind], allowed: [String], now: Int64) {
        switch type {
        case nil:
            builder.offer(.json(.string("x")))
        case .string:
            TextOptions.fill(&builder, allowed: allowed)
            builder.offer(.json(.number(0)))
        case .number:
            for number in NumberCandidates.values(around: NumberCandidates.literals(kinds)) { builder.offer(.json(.number(number))) }
            builder.offer(.json(.string("x")))
        case .bool:
            builder.offer(.json(.bool(true)))
            builder.offer(.json(.bool(false)))
            builder.offer(.json(.number(2)))
        case .date:
            for ms in DateCandidates.instants(around: DateCandidates.points(kinds, now: now), fallback: now) {
                builder.offer(.json(.number(Double(ms))))
            }
            builder.offer(.json(.string("x")))
        case .version:
            for text in VersionCandidates.texts(around: VersionCandidates.literals(kinds)) where !builder.offer(.json(.string(text))) {
                builder.isComplete = false
            }
            builder.offer(.json(.number(0)))
        case .set:
            SetOptions.fill(&builder, custom: true, allowed: allowed)
            builder.offer(.json(.number(0)))
        }
    }

    static func fillBuiltin(_ builder: inout OptionTableBuilder, type: ValueType, kinds: [CompiledTest.Kind], allowed: [String], now: Int64) {
        switch type {
        case .string:
            TextOptions.fill(&builder, allowed: allowed)
        case .number:
            for number in NumberCandidates.values(around: NumberCandidates.literals(kinds)) { builder.offer(.json(.number(number))) }
        case .bool:
            builder.offer(.json(.bool(true)))
            builder.offer(.json(.bool(false)))
        case .date:
            for ms in DateCandidates.instants(around: DateCandidates.points(kinds, now: now), fallback: now) {
                builder.offer(.json(.string(DateCandidates.text(ms))))
            }
        case .version:
            for text in VersionCandidates.texts(around: VersionCandidates.literals(kinds)) { builder.offer(.json(.string(text))) }
        case .set:
            SetOptions.fill(&builder, custom: false, allowed: allowed)
        }
    }

    /// `birthday` with `age`, or `installed_at` with `days_since_install`: the date's own points
    /// plus the dates where the derived number steps past its literals.
    static func fillDerived(_ builder: inout OptionTableBuilder, name: String, now: Int64) {
        let dateKinds = builder.tests.filter { $0.slot.target == .builtin(name) }.map(\.test.kind)
        let numberKinds = builder.tests.filter { $0.slot.target != .builtin(name) }.map(\.test.kind)
        let wholes = NumberCandidates.wholeNumbers(around: NumberCandidates.literals(numberKinds))
        var points = DateCandidates.points(dateKinds, now: now)
        let ordinary: Int64
        if BuiltinField.derivations(from: name).contains(.wholeYears) {
            points += DateCandidates.ageSteps(ages: wholes, now: now)
            ordinary = DateCandidates.ageSteps(ages: [30], now: now).first ?? now
            // How `age` and `now ± d` steps line up depends on the calendar, which the points above ignore.
            if !numberKinds.isEmpty, !DateCandidates.operands(dateKinds).relative.isEmpty { builder.isComplete = false }
        } else {
            points += DateCandidates.daySteps(days: wholes, now: now)
            ordinary = now - DateCandidates.msPerDay
        }
        for ms in [ordinary] + DateCandidates.instants(around: points, fallback: ordinary) {
            builder.offer(.json(.string(DateCandidates.text(ms))))
        }
    }
}
