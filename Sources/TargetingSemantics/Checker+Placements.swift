import TargetingBase
import TargetingSyntax

extension Checker {
    /// `everyone` last, one kind of destination per placement, and the split rules of §4.5.
    mutating func checkPlacements() {
        var splitIDs: [String: SourceRange] = [:]
        for placement in placementOrder {
            for (index, row) in placement.rows.enumerated() {
                if case .everyone(let range) = row.audience, index != placement.rows.count - 1 {
                    report(.everyoneNotLast(at: range))
                }
            }
            var kind: (String, SourceRange)?
            for row in placement.rows {
                for destination in Checker.leafDestinations(row.destination) {
                    let this: String
                    switch destination {
                    case .flow: this = "flow"
                    case .paywall: this = "paywall"
                    default: continue
                    }
                    if let literal = Checker.emptyIDLiteral(destination) {
                        report(.emptyDestinationID(this, at: literal))
                    }
                    if let (first, firstRange) = kind {
                        if first != this {
                            report(.mixedDestinations(placement: placement.name.text, first: first, firstAt: firstRange, found: this, at: destination.range))
                        }
                    } else {
                        kind = (this, destination.range)
                    }
                }
                if case .split(let split) = row.destination {
                    if let first = splitIDs[split.id] {
                        report(.duplicateSplit(split.id, first: first, at: split.idRange))
                    } else {
                        splitIDs[split.id] = split.idRange
                    }
                    checkSplit(split)
                }
            }
        }
    }

    /// Where the id of `flow ""` or `paywall ""` is written, or nil when the id is not empty.
    ///
    /// An empty id can only be written `""` (every escape stands for a character), and the
    /// literal ends the destination, so it is the destination's last two characters.
    static func emptyIDLiteral(_ destination: Destination) -> SourceRange? {
        switch destination {
        case .flow("", let range), .paywall("", let range):
            let end = range.end
            return SourceRange(file: range.file, start: SourcePosition(offset: end.offset - 2, line: end.line, column: end.column - 2), end: end)
        default:
            return nil
        }
    }

    static func leafDestinations(_ destination: Destination) -> [Destination] {
        if case .split(let split) = destination { return split.variants.map(\.destination) }
        return [destination]
    }

    mutating func checkSplit(_ split: SplitDestination) {
        if split.id.isEmpty { report(.emptySplitID(at: split.idRange)) }
        if split.variants.count < 2 || split.variants.count > 20 {
            report(.splitVariantCount(split.variants.count, at: split.idRange))
        }
        var total = 0
        var weightsValid = true
        var seen: [String: SourceRange] = [:]
        for variant in split.variants {
            // An integer literal (`50`, `050`), not merely an integral value (`50.0`).
            if case .number(let weight) = variant.weight.value, !variant.weight.text.contains("."),
               weight == weight.rounded(), weight >= 1, weight <= 100 {
                total += Int(weight)
            } else {
                report(.invalidWeight(variant.weight.text, at: variant.weight.range))
                weightsValid = false
            }
            // An empty id is its own error, not a duplicate of `nothing`.
            guard Checker.emptyIDLiteral(variant.destination) == nil else { continue }
            let key = variant.destination.splitSortKey
            if let first = seen[key] {
                report(.duplicateVariant(first: first, at: variant.destination.range))
            } else {
                seen[key] = variant.destination.range
            }
        }
        if weightsValid, !split.variants.isEmpty, total != 100 {
            report(.splitWeightsSum(total, weights: split.variants.map { ($0.weightValue, $0.weight.range) }, at: split.idRange))
        }
    }
}
