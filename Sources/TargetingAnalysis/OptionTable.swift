import TargetingBase
import TargetingEngine
import TargetingProfiles

/// A value an example profile can hold for one field.
enum ExampleValue: Hashable {
    /// The field is absent.
    case missing
    /// The field holds this JSON, as a profile file would write it.
    case json(JSONValue)
}

/// The ways one variable can be, as far as its comparisons can tell: one option per distinct
/// vector of truth values of those comparisons.
///
/// Concrete options come first and carry a value that produces their vector. Abstract options
/// follow: vectors no concrete value was found for but that no argument rules out. Searching
/// concrete options only finds real profiles; searching all of them, when `isComplete`, covers
/// every profile.
struct OptionTable {
    /// Each option's value; nil for an abstract option.
    var values: [ExampleValue?]
    /// How many options (at the front) are concrete.
    var concreteCount: Int
    /// How many comparisons each vector covers.
    var atomCount: Int
    /// The vectors, one after another.
    var truth: [Bool]
    /// Whether every vector a real profile can produce is among the options.
    var isComplete: Bool
    /// How much evaluation building the table took (values offered times comparisons).
    var cost: Int

    /// The truth value of comparison `local` under option `option`.
    @inline(__always)
    func holds(option: Int, atom local: Int) -> Bool { truth[option * atomCount + local] }
}

/// Collects the options of one variable: offered values are read through the real profile
/// reader and evaluated by the real comparison semantics, and kept when their vector is new.
struct OptionTableBuilder {
    /// The field.
    let field: FieldKey
    /// The comparisons, in local order, with the slot each reads.
    let tests: [(slot: Slot, test: CompiledTest)]
    /// For the assignment of a sticky experiment, instead of comparisons: the atoms' probes,
    /// in local order.
    let probes: [ConditionGraph.StickyProbe]
    /// How many atoms a vector covers.
    var atomCount: Int { tests.count + probes.count }
    /// The instant comparisons are evaluated at.
    let now: Int64

    private var concrete: [(ExampleValue, [Bool])] = []
    private var abstract: [[Bool]] = []
    private var seen: Set<[Bool]> = []
    private var offers = 0
    /// Whether every vector a real profile can produce has been offered.
    var isComplete = true
    /// Work spent deciding which vectors exist (tuples of automata explored), counted in the
    /// table's cost like evaluations.
    var work = 0
    /// Most comparisons to evaluate; offers beyond it are refused and the table is incomplete.
    let budget: Int
    /// The distinct slots read, and which of them each test reads.
    private let slots: [Slot]
    private let slotOfTest: [Int]

    /// Starts an empty table.
    init(field: FieldKey, tests: [(slot: Slot, test: CompiledTest)], probes: [ConditionGraph.StickyProbe] = [], now: Int64, budget: Int) {
        self.field = field
        self.tests = tests
        self.probes = probes
        self.now = now
        self.budget = budget
        var slots: [Slot] = []
        slotOfTest = tests.map { test in
            if let index = slots.firstIndex(of: test.slot) { return index }
            slots.append(test.slot)
            return slots.count - 1
        }
        self.slots = slots
    }

    /// Whether some option already has `vector`.
    func has(_ vector: [Bool]) -> Bool { seen.contains(vector) }

    /// Offers a value; returns whether it was evaluated: false when no profile can hold it as
    /// given or the budget is spent. Once every vector of the comparisons has an option (one
    /// comparison true and false), a value is still counted but adds nothing.
    @discardableResult
    mutating func offer(_ value: ExampleValue) -> Bool {
        guard (offers + 1) * max(1, atomCount) <= budget else {
            isComplete = false
            return false
        }
        offers += 1
        guard let profile = OptionTableBuilder.profile(field, value) else { return false }
        if atomCount < 8, seen.count == 1 << atomCount { return true }
        let values = slots.map { $0.read(from: profile, now: now) }
        let vector = tests.indices.map { tests[$0].test.holds(values[slotOfTest[$0]], now: now) }
            + probes.map { $0.plan.stickyStep(in: profile.history, now: now) == $0.step }
        if seen.insert(vector).inserted { concrete.append((value, vector)) }
        return true
    }

    /// Offers a vector that no concrete value is known to produce.
    mutating func offerAbstract(_ vector: [Bool]) {
        if seen.insert(vector).inserted { abstract.append(vector) }
    }

    /// The finished table.
    func table() -> OptionTable {
        var truth: [Bool] = []
        truth.reserveCapacity((concrete.count + abstract.count) * atomCount)
        for (_, vector) in concrete { truth += vector }
        for vector in abstract { truth += vector }
        return OptionTable(values: concrete.map(\.0) + abstract.map { _ in nil }, concreteCount: concrete.count,
                           atomCount: atomCount, truth: truth, isComplete: isComplete,
                           cost: (offers + abstract.count) * max(1, atomCount) + work)
    }

    /// A profile holding only `value` in `field`, or nil when a profile cannot hold it as given
    /// (a custom value that breaks Adapty's rules or that trimming would change).
    static func profile(_ field: FieldKey, _ value: ExampleValue) -> Profile? {
        var profile = Profile()
        guard case .json(let json) = value else { return profile }
        switch field {
        case .builtin(let name):
            profile.setField(name, json)
        case .custom(let key):
            guard case .success(let stored?) = ProfileReader.storedValue(json) else { return nil }
            if case .string(let raw) = json, AdaptyLimits.trimmed(raw) != raw { return nil }
            if case .array(let items) = json, case .string(let joined) = stored,
               joined != items.compactMap(\.stringValue).joined(separator: ",") { return nil }
            profile.setCustom(key, stored)
        case .history(let placement):
            // Read as a profile's `history` is read: the list is checked and kept as the store keeps it.
            let shown = FieldKey.shownMembers(placement, json)
            guard case .success(let history) = ProfileHistory.read(.object([JSONMember(key: "shown", value: .object(shown))])) else { return nil }
            profile.history = history
        case .assignment(let experiment):
            guard case .success(let history) = ProfileHistory.read(.object([JSONMember(key: "assigned", value: .object([JSONMember(key: experiment, value: json)]))])) else { return nil }
            profile.history = history
        }
        return profile
    }
}
