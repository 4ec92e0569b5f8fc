import TargetingBase
import TargetingProfiles
import TargetingSemantics
import TargetingSyntax

/// A checked rule set compiled for fast evaluation: attributes are numbered slots read once per
/// profile, names are indices, and segments are evaluated in dependency order (never by name).
package struct Program: Sendable {
    /// A compiled segment.
    package struct Segment: Sendable {
        /// The segment's name.
        package var name: String
        /// Its condition.
        package var condition: Condition
    }

    /// A compiled audience.
    package struct Audience: Sendable {
        /// The audience's name.
        package var name: String
        /// Its condition over segments.
        package var condition: Condition
        /// Every segment it needs, dependencies first.
        package var segmentOrder: [Int]
        /// Every placement its segments' prerequisites ask about, directly or through other
        /// placements, each after those it depends on.
        package var placementOrder: [Int] = []
    }

    /// A compiled placement row: its guards and action.
    package typealias Row = DecisionRow

    /// A compiled placement: its decision plan.
    package typealias Placement = DecisionPlan

    /// The attribute slots.
    package private(set) var slots: [Slot] = []
    /// Segments by index.
    package private(set) var segments: [Segment] = []
    /// Audiences by index.
    package private(set) var audiences: [Audience] = []
    /// Placements in declaration order.
    package private(set) var placements: [Placement] = []
    /// The rule set's holdout, prepared.
    package private(set) var holdout: HoldoutPlan?
    /// The layers, prepared, in declaration order.
    package private(set) var layers: [LayerPlan] = []
    /// The prerequisites of the segments, compiled, in the order the conditions name them.
    package private(set) var prerequisites: [PrerequisiteTest] = []
    /// Per placement: the placements its rows' prerequisites ask about, directly or through
    /// other placements, each after those it depends on (empty without prerequisites).
    package private(set) var placementDependencies: [[Int]] = []
    /// The prerequisites written in the segments, before the placements they name are compiled.
    private var writtenPrerequisites: [Prerequisite] = []
    /// The rule set compiled.
    package let ruleSet: CheckedRules

    /// The hot-path form of the same program (built last, on init).
    package private(set) var flat: FlatCode!

    var slotIndex: [Slot: Int] = [:]
    var segmentIndex: [String: Int] = [:]
    var placementIndexByName: [String: Int] = [:]
    /// The placements' names as UTF-8, in declaration order.
    var placementNameBytes: [[UInt8]] = []

    /// Compiles a rule set that checked without errors.
    package init(_ ruleSet: CheckedRules) {
        self.ruleSet = ruleSet
        for (index, segment) in ruleSet.segments.enumerated() { segmentIndex[segment.name.text] = index }
        for (index, placement) in ruleSet.placements.enumerated() { placementIndexByName[placement.name.text] = index }
        segments = ruleSet.segments.map { Segment(name: $0.name.text, condition: .and([])) }
        for (index, segment) in ruleSet.segments.enumerated() {
            segments[index].condition = compile(segment.expression)
        }
        var audienceIndex: [String: Int] = [:]
        for audience in ruleSet.audiences {
            let condition = compile(audience.expression)
            audienceIndex[audience.name.text] = audiences.count
            audiences.append(Audience(name: audience.name.text, condition: condition, segmentOrder: dependencyOrder(of: audience.expression)))
        }
        if let declaration = ruleSet.holdout {
            holdout = HoldoutPlan(name: declaration.name.text, weight: declaration.weightValue, key: drawKey(declaration.key),
                                  excepted: Set(declaration.excepted.map(\.text)))
        }
        var layerGuards: [String: LayerGuard] = [:]
        for layer in ruleSet.layers {
            var start = 0
            var shares: [(experiment: String, buckets: Range<Int>)] = []
            for member in layer.members {
                shares.append((member.experiment.text, start..<(start + member.weightValue)))
                layerGuards[member.experiment.text] = LayerGuard(layer: layers.count, buckets: start..<(start + member.weightValue))
                start += member.weightValue
            }
            layers.append(LayerPlan(name: layer.name.text, key: drawKey(layer.key), shares: shares))
        }
        for placement in ruleSet.placements {
            var plans: [SplitPlan?] = []
            for row in placement.rows {
                switch row.destination {
                case .split(let split): plans.append(SplitPlan(split, key: drawKey(split.key)))
                case .experiment(let used):
                    plans.append(ruleSet.experiment(named: used.experiment.text).map { SplitPlan($0, row: used, key: drawKey($0.key)) })
                case .flow, .paywall, .nothing:
                    plans.append(nil)
                }
            }
            let covered = holdout?.covers(placement.name.text) ?? false
            placementNameBytes.append(Array(placement.name.text.utf8))
            placements.append(DecisionPlan(name: placement.name.text, rows: placement.rows, isCoveredByHoldout: covered,
                                           audience: { audienceIndex[$0] }, splits: plans, layer: { layerGuards[$0] }))
        }
        prerequisites = writtenPrerequisites.map { written in
            let index = placementIndexByName[written.placement.text] ?? 0
            return PrerequisiteTest(written, placement: index, plan: placements[index])
        }
        writtenPrerequisites = []
        if prerequisites.isEmpty {
            placementDependencies = Array(repeating: [], count: placements.count)
        } else {
            let graph = DependencyGraph(ruleSet)
            placementDependencies = placements.map { placement in
                graph.placementsUsed(by: placement.name).compactMap { placementIndexByName[$0] }
            }
            for index in audiences.indices {
                audiences[index].placementOrder = placementsNeeded(bySegments: audiences[index].segmentOrder)
            }
        }
        flat = FlatCode(self)
    }

    /// How a `by KEY` (nil: `profile.id`) is read.
    mutating func drawKey(_ key: AttributeReference?) -> DrawKey {
        guard let key, key.target != .builtin("id") else { return .profileID }
        let slot = Slot(target: key.target, type: .string)
        if let index = slotIndex[slot] { return .slot(index) }
        slots.append(slot)
        slotIndex[slot] = slots.count - 1
        return .slot(slots.count - 1)
    }

    /// Whether decisions carry the experiment fields (the rule set has experiments or a holdout).
    package var reportsExperiments: Bool { ruleSet.reportsExperiments }

    /// The index of the placement named `name`.
    package func placementIndex(named name: String) -> Int? {
        // A few names are compared in place, by their UTF-8 bytes: hashing the name, or
        // comparing `String`s (which checks normalisation first), costs more than the bytes.
        if placementNameBytes.count <= Self.placementsComparedInPlace,
           let found = name.utf8.withContiguousStorageIfAvailable({ bytes in
               placementNameBytes.firstIndex { stored in
                   stored.count == bytes.count && stored.withUnsafeBufferPointer { stored in
                       var index = 0
                       while index < stored.count, stored[index] == bytes[index] { index += 1 }
                       return index == stored.count
                   }
               }
           }) {
            return found
        }
        return placementIndexByName[name]
    }

    /// The index of the placement named `name`, or the error naming the nearest placement.
    package func placementIndex(of name: String) -> Result<Int, ResolveError> {
        if let index = placementIndex(named: name) { return .success(index) }
        return .failure(.unknownPlacement(name, suggestion: Suggestion.nearest(to: name, in: placements.map(\.name))))
    }

    /// Up to how many placements `placementIndex(named:)` compares names instead of hashing.
    static let placementsComparedInPlace = 8

    /// Segments an expression needs, transitively, each after the segments it uses.
    func dependencyOrder(of expression: Expression) -> [Int] {
        var order: [Int] = []
        var state: [Int: Bool] = [:]  // false: in progress, true: done
        for root in expression.references.compactMap({ segmentIndex[$0.text] }) where state[root] == nil {
            var stack: [(Int, [Int], Int)] = [(root, children(root), 0)]
            state[root] = false
            while let (node, kids, next) = stack.last {
                if next == kids.count {
                    state[node] = true
                    order.append(node)
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].2 += 1
                let child = kids[next]
                if state[child] == nil {
                    state[child] = false
                    stack.append((child, children(child), 0))
                }
            }
        }
        return order
    }

    /// The placements the prerequisites of `segments` ask about, each after those it depends on.
    package func placementsNeeded(bySegments segments: [Int]) -> [Int] {
        var needed: [Int] = []
        for segment in segments {
            for used in ruleSet.segments[segment].expression.prerequisites {
                guard let placement = placementIndexByName[used.placement.text] else { continue }
                for dependency in placementDependencies[placement] + [placement] where !needed.contains(dependency) {
                    needed.append(dependency)
                }
            }
        }
        return needed
    }

    package func children(_ segment: Int) -> [Int] {
        ruleSet.segments[segment].expression.references.compactMap { segmentIndex[$0.text] }
    }

    mutating func slot(for target: AttributeReference.Target) -> Int {
        let type = ruleSet.attributeTypes[target]?.type ?? {
            switch target {
            case .builtin(let field): return BuiltinField.all[field]?.type
            case .custom: return nil
            case .shownCount: return .number
            case .lastShown: return .date
            }
        }()
        let slot = Slot(target: target, type: type)
        if let index = slotIndex[slot] { return index }
        slots.append(slot)
        slotIndex[slot] = slots.count - 1
        return slots.count - 1
    }

    mutating func compile(_ expression: Expression) -> Condition {
        switch expression {
        case .or(let items, _): return .or(items.map { compile($0) })
        case .and(let items, _): return .and(items.map { compile($0) })
        case .not(let inner, _): return .not(compile(inner))
        case .group(let inner, _): return compile(inner)
        case .reference(let name): return .segment(segmentIndex[name.text] ?? -1)
        case .comparison(let comparison): return .test(compile(comparison))
        case .prerequisite(let prerequisite):
            writtenPrerequisites.append(prerequisite)
            return .prerequisite(writtenPrerequisites.count - 1)
        }
    }

    /// Lowers a checked comparison: its typed test (`TypedTest`, as the checker accepted it)
    /// becomes the compiled test of the same type, with `ignoring case` literals folded.
    mutating func compile(_ comparison: Comparison) -> CompiledTest {
        let slotNumber: Int
        let type: ValueType?
        switch comparison.subject {
        case .now:
            slotNumber = -1
            type = .date
        case .attribute(let reference):
            slotNumber = slot(for: reference.target)
            type = slots[slotNumber].type
        }
        guard let typed = TypedTest(comparison, subjectType: type) else {
            // A rule set that checked without errors types every comparison.
            preconditionFailure("compiling a comparison the checker did not accept: \(comparison.text())")
        }
        return CompiledTest(slot: slotNumber, kind: CompiledTest.Kind(typed, ignoringCase: comparison.ignoringCase),
                            negated: comparison.op.isNegation, source: comparison)
    }
}
