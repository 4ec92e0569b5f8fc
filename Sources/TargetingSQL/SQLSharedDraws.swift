import TargetingBase
import TargetingEngine

/// The draws of experiments and the holdout that do not depend on the placement, computed once per profile in the
/// common table expressions every placement's chain of a query starts from: the value of each
/// `by KEY` other than `profile.id` (`k<N>_v`), whether the holdout holds the profile out
/// (`in_holdout`), and each experiment's bucket (`exp_NAME`), so that a profile's variant is
/// drawn once for every placement that uses the experiment.
///
/// For a sticky experiment, `stk_NAME` is the bucket that chooses the variant the profile's
/// history assigned while that assignment sticks (`at > now − DURATION`, and the experiment
/// still has the variant; NULL otherwise): a row of the experiment that a profile not held out
/// from it reaches picks its variant by that bucket (`SplitPlan.stickyStep`).
struct SQLSharedDraws {
    let program: Program
    /// The slots of the keys drawn on, other than `profile.id`, in order of first use.
    private(set) var keySlots: [Int] = []
    /// The holdout, when it covers one of the placements compiled.
    let holdout: HoldoutPlan?
    /// The experiments the placements' rows use, in order of first use, with their keys and the
    /// plan of their first row (the variants' order and bounds, and `sticky`, are the experiment's).
    private(set) var experiments: [(name: String, key: DrawKey, plan: SplitPlan)] = []
    /// Each experiment's bucket column: `exp_NAME`, named as segments are (`SQLCompiler.columnNames`).
    private let columns: [String: String]
    /// Each experiment's sticky bucket column: `stk_NAME`.
    private let stickyColumns: [String: String]
    /// The layers of the experiments the placements' rows use, in order of first use.
    private(set) var layers: [LayerPlan] = []
    /// Each layer's bucket column: `lay_NAME`.
    private let layerColumns: [String: String]

    init(program: Program, placements: [Program.Placement]) {
        self.program = program
        holdout = placements.contains(where: \.isCoveredByHoldout) ? program.holdout : nil
        let names = program.ruleSet.experiments.map(\.name.text)
        columns = Dictionary(zip(names, SQLCompiler.columnNames(prefix: "exp_", names)), uniquingKeysWith: { first, _ in first })
        stickyColumns = Dictionary(zip(names, SQLCompiler.columnNames(prefix: "stk_", names)), uniquingKeysWith: { first, _ in first })
        let layerNames = program.layers.map(\.name)
        layerColumns = Dictionary(zip(layerNames, SQLCompiler.columnNames(prefix: "lay_", layerNames)), uniquingKeysWith: { first, _ in first })
        if let holdout { use(holdout.key) }
        for placement in placements {
            for row in placement.rows {
                for rowGuard in row.guards {
                    guard case .layer(let share) = rowGuard else { continue }
                    let layer = program.layers[share.layer]
                    if !layers.contains(where: { $0.name == layer.name }) {
                        layers.append(layer)
                        use(layer.key)
                    }
                }
            }
            for plan in placement.rows.compactMap(\.split) {
                use(plan.key)
                if plan.isExperiment, !experiments.contains(where: { $0.name == plan.id }) {
                    experiments.append((name: plan.id, key: plan.key, plan: plan))
                }
            }
        }
    }

    private mutating func use(_ key: DrawKey) {
        if let slot = key.slot, !keySlots.contains(slot) { keySlots.append(slot) }
    }

    /// The column holding experiment `name`'s bucket (0..<100, NULL when the profile has no
    /// value for its key).
    func bucketColumn(_ name: String) -> String { columns[name] ?? "exp_" }

    /// The column holding sticky experiment `name`'s bucket of the assigned variant, NULL when
    /// no assignment sticks.
    func stickyColumn(_ name: String) -> String { stickyColumns[name] ?? "stk_" }

    /// The column holding layer `name`'s bucket (0..<100, NULL when the profile has no value
    /// for its key).
    func layerColumn(_ name: String) -> String { layerColumns[name] ?? "lay_" }

    /// Whether some experiment drawn is sticky, so the profile's history is read.
    var readsHistory: Bool { experiments.contains { $0.plan.sticky != nil } }

    /// Adds the shared columns to `chain`: the key slots read as strings, then the draws.
    func addColumns(to chain: inout SQLChain, reader: SQLSlotReader) {
        let dialect = reader.dialect
        var stages = SQLStages()
        for slot in keySlots {
            reader.read(program.slots[slot], index: slot, folded: false, prefix: SQLCompiler.keyPrefix(slot), into: &stages)
        }
        // Each sticky experiment's recorded assignment: `a<N>_v` (variant) and `a<N>_ms` (when).
        let history = SQLHistoryReader(dialect: dialect, now: reader.now)
        var stickies: [(name: String, expression: String)] = []
        for (number, experiment) in experiments.enumerated() {
            guard let sticky = experiment.plan.sticky else { continue }
            let prefix = "a\(number)_"
            history.addAssignment(of: experiment.name, prefix: prefix, reader: reader, into: &stages)
            var lower = 0
            var cases: [SQLExpression.When] = []
            for step in experiment.plan.steps {
                if let variant = step.variant { cases.append(.init(.string(variant), .integer(Int64(lower)))) }
                lower = step.bound
            }
            let chosen: SQLExpression = cases.isEmpty ? .cast(.null, .int) : .caseWhen(subject: .column("\(prefix)v"), cases, otherwise: nil)
            let recent = SQLExpression.compare(.column("\(prefix)ms"), .greater, .integer(reader.now &- sticky))
            stickies.append((name: stickyColumn(experiment.name),
                             expression: dialect.sql(.caseWhen(subject: nil, [.init(recent, chosen)], otherwise: nil))))
        }
        for stage in stages.ordered { chain.add(stage) }
        if !stickies.isEmpty { chain.add(stickies) }
        var draws: [(name: String, expression: String)] = []
        var comments: [String?] = []
        // A bucket reads its hash twice: each draw's hash comes first, once.
        var hashes: [(name: String, expression: String)] = []
        func bucket(_ name: String, _ seed: String, _ value: SQLExpression) -> SQLExpression {
            let hash = SQLExpression.hash(.concat([.string(seed + "-"), value]))
            hashes.append((name: name + "_h", expression: dialect.sql(.caseWhen(subject: nil, [.init(.isNull(value, negated: true), hash)], otherwise: nil))))
            return .bucket(.column(name + "_h"))
        }
        if let holdout {
            let value = SQLExpression.column(holdout.key.sqlValue)
            let bucket = bucket(SQLCompiler.holdoutColumn, holdout.name, value)
            // A profile without a value for the key cannot be drawn, and is not held out.
            let drawn = SQLExpression.caseWhen(subject: nil, [.init(.isNull(value, negated: true), .compare(bucket, .less, .integer(Int64(holdout.weight))))],
                                               otherwise: .bool(false))
            draws.append((name: SQLCompiler.holdoutColumn, expression: dialect.sql(drawn)))
            comments.append("holdout \(holdout.name) \(holdout.weight)% by \(describe(holdout.key))".replacingNewlines)
        }
        for experiment in experiments {
            let value = SQLExpression.column(experiment.key.sqlValue)
            let bucket = bucket(bucketColumn(experiment.name), experiment.name, value)
            draws.append((name: bucketColumn(experiment.name),
                          expression: dialect.sql(.caseWhen(subject: nil, [.init(.isNull(value, negated: true), bucket)], otherwise: nil))))
            comments.append("experiment \(experiment.name) by \(describe(experiment.key))".replacingNewlines)
        }
        for layer in layers {
            let value = SQLExpression.column(layer.key.sqlValue)
            let bucket = bucket(layerColumn(layer.name), layer.name, value)
            draws.append((name: layerColumn(layer.name),
                          expression: dialect.sql(.caseWhen(subject: nil, [.init(.isNull(value, negated: true), bucket)], otherwise: nil))))
            comments.append("layer \(layer.name) by \(describe(layer.key))".replacingNewlines)
        }
        if !hashes.isEmpty { chain.add(hashes) }
        if !draws.isEmpty { chain.add(draws, comments: comments) }
    }

    /// The key as the rules write it, for a comment.
    private func describe(_ key: DrawKey) -> String {
        guard let slot = key.slot else { return AttributeTarget.builtin("id").written }
        return program.slots[slot].target.written
    }
}
