import TargetingEngine
import TargetingSyntax

/// A split or an experiment row compiled to SQL: the bucket, and the
/// variants in the plan's draw order.
extension SplitPlan {
    /// The bucket, 0..<100, of `keyValue` for this split or experiment: the hash of the text
    /// `ID-VALUE`.
    func bucket(keyValue: SQLExpression) -> SQLExpression {
        .bucket(.hash(.concat([.string(id + "-"), keyValue])))
    }

    /// A SQL value that picks, by `bucket`, the value `value(index)` of the variant drawn
    /// (`index` in `steps`). The weights' walk (subtract each weight from r; the first that
    /// takes r below 0 wins) chooses the first variant whose running total of weights exceeds r.
    func sqlChoose(bucket: SQLExpression, _ value: (Int) -> SQLExpression) -> SQLExpression {
        guard !steps.isEmpty else { return .null }
        let cases = steps.indices.dropLast().map { SQLExpression.When(.compare(bucket, .less, .integer(Int64(steps[$0].bound))), value($0)) }
        return .caseWhen(subject: nil, cases, otherwise: value(steps.count - 1))
    }
}

extension DrawKey {
    /// The text column holding this key's value for a profile (NULL when the profile has none):
    /// `profile_id`, or the string view of the key's slot read into the shared columns
    /// (`k<N>_v`, see `SQLCompiler`).
    var sqlValue: String {
        switch self {
        case .profileID: "profile_id"
        case .slot(let index): SQLCompiler.keyPrefix(index) + "v"
        }
    }

    /// The slot this key reads, unless it is the profile id.
    var slot: Int? {
        if case .slot(let index) = self { return index }
        return nil
    }
}
