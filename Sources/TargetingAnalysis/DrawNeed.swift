import TargetingEngine
import TargetingProfiles

/// What one draw (a split, an experiment or the holdout) must give for a route: the bucket of
/// `"<name>-<value of the key>"` must fall in `buckets`.
///
/// The search treats draws as free: any bucket is possible for a key value it has not pinned.
/// Two needs on one name and one key draw one bucket (a split or experiment in both rule sets
/// of `diff --prove`, or the holdout in both), so they must meet in one range; needs with
/// different names are met by looking for a key value that draws all of them.
struct DrawNeed: Hashable {
    /// The split id, the experiment's or the holdout's name.
    var name: String
    /// The stored field the key reads (`id` for `profile.id`).
    var field: FieldKey
    /// The buckets (0..<100) that give the outcome needed.
    var buckets: Range<Int>
    /// Buckets inside `buckets` that do not: the shares of a layer's experiments whose rows
    /// the profile must pass without entering.
    var excluded: [Range<Int>] = []

    /// Whether some bucket meets every need on each name and key together.
    static func areFeasible(_ needs: [DrawNeed]) -> Bool {
        var ranges: [DrawGroup: Range<Int>] = [:]
        var excluded: [DrawGroup: [Range<Int>]] = [:]
        for need in needs {
            let group = DrawGroup(name: need.name, field: need.field)
            let known = ranges[group] ?? 0..<100
            let lower = max(known.lowerBound, need.buckets.lowerBound), upper = min(known.upperBound, need.buckets.upperBound)
            guard lower < upper else { return false }
            ranges[group] = lower..<upper
            excluded[group, default: []] += need.excluded
        }
        // Some bucket of each group's range lies outside every excluded share.
        return ranges.allSatisfy { group, range in
            let out = excluded[group] ?? []
            return range.contains { bucket in !out.contains { $0.contains(bucket) } }
        }
    }

    /// Whether the key value `value` draws a bucket this need accepts.
    func holds(_ value: String) -> Bool {
        let bucket = SplitDraw.bucket(splitID: name, profileID: value)
        return buckets.contains(bucket) && !excluded.contains { $0.contains(bucket) }
    }

    /// The field a draw key reads in `program`.
    static func field(of key: DrawKey, in program: Program) -> FieldKey {
        FieldKey(ConditionGraph.slot(of: key, in: program).target)
    }

    /// The buckets that choose step `step` of `plan`.
    static func buckets(of plan: SplitPlan, step: Int) -> Range<Int> {
        (step == 0 ? 0 : plan.steps[step - 1].bound)..<plan.steps[step].bound
    }

    private struct DrawGroup: Hashable {
        var name: String
        var field: FieldKey
    }
}
