import TargetingBase
import TargetingSyntax

extension Checker {
    /// `everyone` last, one kind of destination per placement, and the split rules.
    mutating func checkPlacements() {
        var splitIDs: [String: SourceRange] = [:]
        for placement in placementOrder {
            for (index, row) in placement.rows.enumerated() {
                if case .everyone(let range) = row.audience, index != placement.rows.count - 1 {
                    report(.everyoneNotLast(at: range))
                }
            }
            checkAlwaysRows(placement)
            var kind: (String, SourceRange)?
            for row in placement.rows {
                for destination in Checker.leafDestinations(row.destination) {
                    let this: String
                    switch destination {
                    case .flow: this = "flow"
                    case .paywall: this = "paywall"
                    case .nothing, .split, .experiment: continue  // `shown` gives no split or experiment
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
                if case .experiment(let experiment) = row.destination {
                    checkExperimentRow(experiment)
                }
                if case .split(let split) = row.destination {
                    if let key = split.key { checkKey(key) }
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

    /// `always` only before a row that shows something; and in a placement the holdout covers,
    /// a warning on each `-> nothing` row above the first drawing row that is not `always`
    /// (a subscriber's "show nothing" is a business rule the holdout would override).
    mutating func checkAlwaysRows(_ placement: PlacementDeclaration) {
        for row in placement.rows {
            guard let always = row.always else { continue }
            switch row.destination {
            case .split: report(.alwaysOnDrawingRow("a split", at: always))
            case .experiment: report(.alwaysOnDrawingRow("an experiment", at: always))
            case .flow, .paywall, .nothing: break
            }
        }
        guard let holdout, !holdout.excepted.contains(where: { $0.text == placement.name.text }) else { return }
        for row in placement.rows {
            switch row.destination {
            case .split, .experiment: return
            case .flow, .paywall: continue
            case .nothing:
                guard row.always == nil, case .audience(let audience) = row.audience else { continue }
                report(.heldOutSkipsNothingRow(audience.text, holdout: holdout.name.text, at: audience.range))
            }
        }
    }

    /// Where the id of `flow ""` or `paywall ""` is written, or nil when the id is not empty.
    ///
    /// An empty id can only be written `""` (every escape stands for a character), and the
    /// literal ends the destination, so it is the destination's last two characters.
    static func emptyIDLiteral(_ destination: Destination) -> SourceRange? {
        switch destination {
        case .flow(let id, let range), .paywall(let id, let range):
            guard id.isEmpty else { return nil }
            let end = range.end
            return SourceRange(file: range.file, start: SourcePosition(offset: end.offset - 2, line: end.line, column: end.column - 2), end: end)
        case .nothing, .split, .experiment:
            return nil
        }
    }

    static func leafDestinations(_ destination: Destination) -> [Destination] { destination.shown }

    mutating func checkSplit(_ split: SplitDestination) {
        if split.id.isEmpty { report(.emptySplitID(at: split.idRange)) }
        checkWeights(split.variants.map(\.weight), of: "split", at: split.idRange)
        var seen: [String: SourceRange] = [:]
        for variant in split.variants {
            // An empty id is its own error, not a duplicate of `nothing`.
            guard Checker.emptyIDLiteral(variant.destination) == nil else { continue }
            let key = variant.destination.splitSortKey
            if let first = seen[key] {
                report(.duplicateVariant(first: first, at: variant.destination.range))
            } else {
                seen[key] = variant.destination.range
            }
        }
    }

    /// 2 to 20 variants whose weights are whole numbers from 1 to 100 adding up to 100; `kind`
    /// (`split` or `experiment`) names what holds them.
    mutating func checkWeights(_ weights: [Literal], of kind: String, at range: SourceRange) {
        if weights.count < 2 || weights.count > 20 {
            report(.splitVariantCount(weights.count, of: kind, at: range))
        }
        var total = 0
        var weightsValid = true
        var values: [(Int, SourceRange)] = []
        for weight in weights {
            if let value = Checker.weightValue(weight) {
                total += value
                values.append((value, weight.range))
            } else {
                report(.invalidWeight(weight.text, at: weight.range))
                weightsValid = false
            }
        }
        if weightsValid, !weights.isEmpty, total != 100 {
            report(.splitWeightsSum(total, of: kind, weights: values, at: range))
        }
    }

    /// The whole number a weight literal is: an integer literal (`50`, `050`), not merely an
    /// integral value (`50.0`), from 1 to 100.
    static func weightValue(_ weight: Literal) -> Int? {
        guard case .number(let value) = weight.value, !weight.text.contains("."), value == value.rounded(),
              value >= 1, value <= 100 else { return nil }
        return Int(value)
    }
}
