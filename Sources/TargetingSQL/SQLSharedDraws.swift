import TargetingBase
import TargetingEngine

/// The draws of experiments and the holdout that do not depend on the placement, computed once per profile in the
/// common table expressions every placement's chain of a query starts from: the value of each
/// `by KEY` other than `profile.id` (`k<N>_v`), whether the holdout holds the profile out
/// (`in_holdout`), and each experiment's bucket (`exp_NAME`), so that a profile's variant is
/// drawn once for every placement that uses the experiment.
struct SQLSharedDraws {
    let program: Program
    /// The slots of the keys drawn on, other than `profile.id`, in order of first use.
    private(set) var keySlots: [Int] = []
    /// The holdout, when it covers one of the placements compiled.
    let holdout: HoldoutPlan?
    /// The experiments the placements' rows use, in order of first use, with their keys.
    private(set) var experiments: [(name: String, key: DrawKey)] = []
    /// Each experiment's bucket column: `exp_NAME`, named as segments are (`SQLCompiler.columnNames`).
    private let columns: [String: String]

    init(program: Program, placements: [Program.Placement]) {
        self.program = program
        holdout = placements.contains(where: \.isCoveredByHoldout) ? program.holdout : nil
        let names = program.ruleSet.experiments.map(\.name.text)
        columns = Dictionary(zip(names, SQLCompiler.columnNames(prefix: "exp_", names)), uniquingKeysWith: { first, _ in first })
        if let holdout { use(holdout.key) }
        for placement in placements {
            for plan in placement.rows.compactMap(\.split) {
                use(plan.key)
                if plan.isExperiment, !experiments.contains(where: { $0.name == plan.id }) {
                    experiments.append((name: plan.id, key: plan.key))
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

    /// Adds the shared columns to `chain`: the key slots read as strings, then the draws.
    func addColumns(to chain: inout SQLChain, reader: SQLSlotReader) {
        let dialect = reader.dialect
        var stages = SQLStages()
        for slot in keySlots {
            reader.read(program.slots[slot], index: slot, folded: false, prefix: SQLCompiler.keyPrefix(slot), into: &stages)
        }
        for stage in stages.ordered { chain.add(stage) }
        var draws: [(name: String, expression: String)] = []
        var comments: [String?] = []
        // PostgreSQL reads a hash twice for one bucket: each draw's MD5 comes first, once.
        var hashes: [(name: String, expression: String)] = []
        func bucket(_ name: String, _ seed: String, _ value: String) -> String {
            let key = dialect.concat([dialect.string(seed + "-"), value])
            guard dialect == .postgres else { return dialect.bucket(key) }
            hashes.append((name: name + "_h", expression: "CASE WHEN \(value) IS NOT NULL THEN md5(\(key)) END"))
            return dialect.bucket(ofHash: name + "_h")
        }
        if let holdout {
            let value = holdout.key.sqlValue
            let bucket = bucket(SQLCompiler.holdoutColumn, holdout.name, value)
            // A profile without a value for the key cannot be drawn, and is not held out.
            draws.append((name: SQLCompiler.holdoutColumn, expression: "CASE WHEN \(value) IS NOT NULL THEN \(bucket) < \(holdout.weight) ELSE FALSE END"))
            comments.append("holdout \(holdout.name) \(holdout.weight)% by \(describe(holdout.key))".replacingNewlines)
        }
        for experiment in experiments {
            let value = experiment.key.sqlValue
            let bucket = bucket(bucketColumn(experiment.name), experiment.name, value)
            draws.append((name: bucketColumn(experiment.name), expression: "CASE WHEN \(value) IS NOT NULL THEN \(bucket) END"))
            comments.append("experiment \(experiment.name) by \(describe(experiment.key))".replacingNewlines)
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
