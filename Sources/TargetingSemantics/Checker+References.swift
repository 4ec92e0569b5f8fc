import TargetingBase
import TargetingSyntax

extension Checker {
    /// Segment expressions use segments; audience expressions use segments only; rows use audiences.
    mutating func checkReferences() {
        let segmentNames = SuggestionIndex(segmentOrder.map(\.name.text))
        let audienceNames = SuggestionIndex(audienceOrder.map(\.name.text))
        for segment in segmentOrder {
            for reference in segment.expression.references {
                checkSegmentReference(reference, segmentNames: segmentNames)
            }
        }
        for audience in audienceOrder {
            audience.expression.forEachLeaf { leaf in
                switch leaf {
                case .reference(let reference):
                    checkSegmentReference(reference, segmentNames: segmentNames)
                case .comparison(let comparison):
                    report(.comparisonInAudience(at: comparison.subject.range))
                case .prerequisite:
                    break  // `checkPrerequisites` reports it
                case .or, .and, .not, .group:
                    break  // `forEachLeaf` visits leaves only
                }
            }
        }
        for placement in placementOrder {
            for row in placement.rows {
                guard case .audience(let name) = row.audience else { continue }
                if audiences[name.text] != nil || isUnparsed(name.text, .audience) { continue }
                if segments[name.text] != nil {
                    report(.segmentInPlacement(name.text, at: name.range))
                } else if placements[name.text] != nil {
                    report(.wrongKindOfName(name.text, is: "placement", expected: "audience", at: name.range))
                } else if experiments[name.text] != nil {
                    report(.wrongKindOfName(name.text, is: "experiment", expected: "audience", at: name.range))
                } else {
                    report(.unknownAudience(name.text, suggestion: audienceNames.nearest(to: name.text), at: name.range))
                }
            }
        }
    }

    mutating func checkSegmentReference(_ reference: Identifier, segmentNames: SuggestionIndex) {
        if segments[reference.text] != nil || isUnparsed(reference.text, .segment) { return }
        if audiences[reference.text] != nil {
            report(.wrongKindOfName(reference.text, is: "audience", expected: "segment", at: reference.range))
        } else if placements[reference.text] != nil {
            report(.wrongKindOfName(reference.text, is: "placement", expected: "segment", at: reference.range))
        } else if experiments[reference.text] != nil {
            report(.wrongKindOfName(reference.text, is: "experiment", expected: "segment", at: reference.range))
        } else {
            report(.unknownSegment(reference.text, suggestion: segmentNames.nearest(to: reference.text), at: reference.range))
        }
    }

    /// Whether `name` is declared by a declaration of `kind` that failed to parse.
    func isUnparsed(_ name: String, _ kind: UnparsedDeclaration.Kind) -> Bool {
        unparsed[kind]?.contains(name) ?? false
    }

    /// Reports each cycle among segments once, at the reference that closes it.
    mutating func checkCycles() {
        enum Mark { case active, done }
        var marks: [String: Mark] = [:]
        var edges: [String: [Identifier]] = [:]
        for segment in segmentOrder {
            edges[segment.name.text] = segment.expression.references.filter { segments[$0.text] != nil }
        }
        for root in segmentOrder where marks[root.name.text] == nil {
            // Iterative depth-first search: (segment, index of the next edge to follow).
            var stack: [(String, Int)] = [(root.name.text, 0)]
            marks[root.name.text] = .active
            while let (name, next) = stack.last {
                let out = edges[name] ?? []
                if next == out.count {
                    marks[name] = .done
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].1 += 1
                let target = out[next]
                switch marks[target.text] {
                case .active:
                    let pathStart = stack.firstIndex { $0.0 == target.text } ?? 0
                    let path = stack[pathStart...].map(\.0) + [target.text]
                    report(.segmentCycle(path: path, at: target.range))
                case .done:
                    break
                case nil:
                    marks[target.text] = .active
                    stack.append((target.text, 0))
                }
            }
        }
    }

    /// Warns about segments no segment or audience uses, and audiences no placement uses.
    mutating func checkUnused() {
        var usedSegments: Set<String> = []
        for expression in segmentOrder.map(\.expression) + audienceOrder.map(\.expression) {
            for reference in expression.references { usedSegments.insert(reference.text) }
        }
        var usedAudiences: Set<String> = []
        for placement in placementOrder {
            for row in placement.rows {
                if case .audience(let name) = row.audience { usedAudiences.insert(name.text) }
            }
        }
        var usedExperiments: Set<String> = []
        for placement in placementOrder {
            for row in placement.rows {
                if case .experiment(let experiment) = row.destination { usedExperiments.insert(experiment.experiment.text) }
            }
        }
        for experiment in experimentOrder where !usedExperiments.contains(experiment.name.text) {
            if experiment.sticky != nil {
                report(.stickyExperimentUnused(experiment.name.text, at: experiment.name.range))
            } else {
                report(.unusedName(experiment.name.text, kind: "experiment", at: experiment.name.range))
            }
        }
        for segment in segmentOrder where !usedSegments.contains(segment.name.text) {
            report(.unusedName(segment.name.text, kind: "segment", at: segment.name.range))
        }
        for audience in audienceOrder where !usedAudiences.contains(audience.name.text) {
            report(.unusedName(audience.name.text, kind: "audience", at: audience.name.range))
        }
    }
}
