/// A split compiled to SQL: the bucket of SPEC §4.5 and the variants in draw order.
struct SQLSplit {
    /// A variant in draw order with the bucket bound below which it is chosen.
    struct Variant {
        var destination: Destination
        var bound: Int
    }

    let split: SplitDestination
    /// Variants sorted by weight, then destination id bytes, then declaration order.
    let variants: [Variant]

    init(_ split: SplitDestination) {
        self.split = split
        let weighted = split.variants.map { (weight: Evaluator.weight($0), sortKey: Checker.destinationKey($0.destination)) }
        var bound = 0
        variants = SplitDraw.sortedIndices(weighted).map { index in
            bound += weighted[index].weight
            return Variant(destination: split.variants[index].destination, bound: bound)
        }
    }

    /// The bucket of `profileID` (a text column) for this split, 0..<100.
    func bucket(profileID: String, dialect: SQLDialect) -> String {
        dialect.bucket(dialect.concat([dialect.string(split.id + "-"), profileID]))
    }

    /// A SQL value that picks, by `bucket`, the variant's value from `value(destination)`.
    /// The walk of SPEC §4.5 (subtract each weight from r; the first that takes r below 0
    /// wins) chooses the first variant whose running total of weights exceeds r.
    func choose(bucket: String, _ value: (Destination) -> String) -> String {
        guard let last = variants.last else { return "NULL" }
        let cases = variants.dropLast().map { "WHEN \(bucket) < \($0.bound) THEN \(value($0.destination))" }
        return "CASE " + (cases + ["ELSE \(value(last.destination))"]).joined(separator: " ") + " END"
    }
}
