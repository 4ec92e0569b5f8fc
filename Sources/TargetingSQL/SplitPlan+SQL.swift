import TargetingEngine
import TargetingSyntax

/// A split compiled to SQL: the bucket of SPEC §4.5 and the variants in the plan's draw order.
extension SplitPlan {
    /// The bucket of `profileID` (a text column) for this split, 0..<100.
    func sqlBucket(profileID: String, dialect: SQLDialect) -> String {
        dialect.bucket(dialect.concat([dialect.string(id + "-"), profileID]))
    }

    /// A SQL value that picks, by `bucket`, the variant's value from `value(destination)`.
    /// The walk of SPEC §4.5 (subtract each weight from r; the first that takes r below 0
    /// wins) chooses the first variant whose running total of weights exceeds r.
    func sqlChoose(bucket: String, _ value: (Destination) -> String) -> String {
        guard let last = steps.last else { return "NULL" }
        let cases = steps.dropLast().map { "WHEN \(bucket) < \($0.bound) THEN \(value($0.destination))" }
        return "CASE " + (cases + ["ELSE \(value(last.destination))"]).joined(separator: " ") + " END"
    }
}
