/// The hot-path form of a compiled program: every condition as instructions over one
/// contiguous array, tests without their source nodes, and rows by audience index. One
/// reference holds it all, so a decision retains one object, walks no tree and allocates
/// nothing on the heap (slot values and segment results live on the stack).
///
/// Conditions run on one boolean accumulator: `and`/`or` become conditional jumps past the
/// rest of their operands, so evaluation short-circuits exactly as the tree does.
///
/// The tables live in buffers this object owns (written once in `init`, freed in `deinit`,
/// never changed in between, hence `@unchecked Sendable`): reading them takes no retain.
package final class FlatCode: @unchecked Sendable {
    /// One instruction.
    package struct Instruction: Hashable, Sendable {
        package enum Op: UInt8, Hashable, Sendable {
            /// acc = test `operand`.
            case test
            /// acc = the (already evaluated) result of segment `operand`.
            case segment
            /// if !acc, continue at `operand`.
            case jumpIfFalse
            /// if acc, continue at `operand`.
            case jumpIfTrue
            /// acc = !acc.
            case not
            /// acc = (operand != 0).
            case constant
            /// acc = prerequisite `operand` holds (its placement decided first, once).
            case prerequisite
        }

        package var op: Op
        package var operand: Int32
    }

    /// The instructions of every condition.
    package let code: UnsafeBufferPointer<Instruction>
    /// The tests instructions refer to, in plain form.
    package let tests: UnsafeBufferPointer<FastTest>
    /// Each test's typed comparison, for tests that run in general form.
    package let kinds: UnsafeBufferPointer<CompiledTest.Kind>
    /// Per slot: the string literals its tests compare with.
    package let literalTables: UnsafeBufferPointer<LiteralTable>
    /// Per slot: whether some test may need its full value.
    package let keepsFullValue: UnsafeBufferPointer<Bool>
    /// Each segment's instructions (a range of `code`).
    package let segmentCode: UnsafeBufferPointer<Range<Int>>
    /// Each audience's instructions.
    package let audienceCode: UnsafeBufferPointer<Range<Int>>
    /// The segments each segment names directly (flattened; ranges per segment).
    package let segmentChildren: UnsafeBufferPointer<Int>
    package let segmentChildRanges: UnsafeBufferPointer<Range<Int>>
    /// Every row's guards (`DecisionPlan`), flattened, row after row.
    package let rowGuards: UnsafeBufferPointer<RowGuard>
    /// Per placement, per row: where its guards start in `rowGuards` (they end where the next
    /// row's start; one more entry ends the last row's).
    package let rowGuardStarts: UnsafeBufferPointer<Int>
    /// Each placement's rows: a range of `rowGuardStarts` and `rowDraws`.
    package let placementRows: UnsafeBufferPointer<Range<Int>>
    /// Per placement, per row: the prepared draw of a row whose action draws (a split or an
    /// experiment), nil for a fixed destination.
    package let rowDraws: UnsafeBufferPointer<SplitPlan?>
    /// What each row shows, shared by the decisions it makes: per row, from `rowShownStart`,
    /// the row without an outcome and then, for a split or an experiment, one per variant.
    package let rowShown: UnsafeBufferPointer<DecisionShown>
    package let rowShownStart: UnsafeBufferPointer<Int>
    /// What a decision shows when no row matched.
    package let noMatch = DecisionShown(DecisionShown.Fields())
    /// The placements' names.
    package let placementNames: ContiguousArray<String>
    /// Per placement: whether the holdout covers it.
    package let coveredByHoldout: UnsafeBufferPointer<Bool>
    /// The rule set's holdout.
    package let holdout: HoldoutPlan?
    /// Whether decisions carry the experiment fields.
    package let reportsExperiments: Bool
    /// The number of slots.
    package let slotCount: Int
    /// The layers, prepared.
    package let layers: [LayerPlan]
    /// Per prerequisite: the placement it asks about.
    package let prerequisitePlacements: UnsafeBufferPointer<Int>
    /// Per prerequisite, from `prerequisiteStarts`: whether no match is accepted, then per
    /// entry of `rowShown` of its placement (a row without an outcome, then each variant)
    /// whether that decision is.
    package let prerequisiteAccepts: UnsafeBufferPointer<Bool>
    package let prerequisiteStarts: UnsafeBufferPointer<Int>
    /// Per prerequisite on a placement whose rows only ask for an audience (no holdout, draw or
    /// layer) and that does not accept no match: a range of `prerequisiteRows`, the rows
    /// (indices in the placement) whose decision it accepts; nil for the others, which decide
    /// the placement in full.
    package let prerequisiteRowRanges: UnsafeBufferPointer<Range<Int>?>
    package let prerequisiteRows: UnsafeBufferPointer<Int>
    /// Per placement, a range of `dependencies`: the placements its prerequisites need decided
    /// first, in order.
    package let dependencyRanges: UnsafeBufferPointer<Range<Int>>
    package let dependencies: UnsafeBufferPointer<Int>

    init(_ program: Program) {
        var code: [Instruction] = []
        var tests: [FastTest] = []
        var kinds: [CompiledTest.Kind] = []
        var tables = [LiteralTable.Builder](repeating: LiteralTable.Builder(), count: program.slots.count)
        var keepsFullValue = [Bool](repeating: false, count: program.slots.count)
        var nowTable = LiteralTable.Builder()
        func emit(_ condition: Condition) {
            switch condition {
            case .and(let items), .or(let items):
                let isAnd: Bool
                if case .and = condition { isAnd = true } else { isAnd = false }
                guard !items.isEmpty else {
                    code.append(Instruction(op: .constant, operand: isAnd ? 1 : 0))
                    return
                }
                var jumps: [Int] = []
                for (index, item) in items.enumerated() {
                    emit(item)
                    if index < items.count - 1 {
                        jumps.append(code.count)
                        code.append(Instruction(op: isAnd ? .jumpIfFalse : .jumpIfTrue, operand: 0))
                    }
                }
                for jump in jumps { code[jump].operand = Int32(code.count) }
            case .not(let inner):
                emit(inner)
                code.append(Instruction(op: .not, operand: 0))
            case .segment(let index):
                code.append(Instruction(op: .segment, operand: Int32(index)))
            case .prerequisite(let index):
                code.append(Instruction(op: .prerequisite, operand: Int32(index)))
            case .test(let test):
                code.append(Instruction(op: .test, operand: Int32(tests.count)))
                let fast = test.slot >= 0
                    ? FastTest(slot: test.slot, kind: test.kind, negated: test.negated, table: &tables[test.slot])
                    : FastTest(slot: test.slot, kind: test.kind, negated: test.negated, table: &nowTable)
                if fast.needsFullValue, test.slot >= 0 { keepsFullValue[test.slot] = true }
                tests.append(fast)
                kinds.append(test.kind)
            }
        }
        func compiled(_ condition: Condition) -> Range<Int> {
            let start = code.count
            emit(condition)
            return start..<code.count
        }
        segmentCode = FlatCode.store(program.segments.map { compiled($0.condition) })
        audienceCode = FlatCode.store(program.audiences.map { compiled($0.condition) })
        var children: [Int] = []
        var ranges: [Range<Int>] = []
        for segment in program.segments.indices {
            let start = children.count
            children.append(contentsOf: program.children(segment))
            ranges.append(start..<children.count)
        }
        segmentChildren = FlatCode.store(children)
        segmentChildRanges = FlatCode.store(ranges)
        var placementRows: [Range<Int>] = []
        for placement in program.placements {
            let start = placementRows.last?.upperBound ?? 0
            placementRows.append(start..<(start + placement.rows.count))
        }
        self.placementRows = FlatCode.store(placementRows)
        var guards: [RowGuard] = []
        var guardStarts: [Int] = []
        for row in program.placements.lazy.flatMap(\.rows) {
            guardStarts.append(guards.count)
            guards += row.guards
        }
        guardStarts.append(guards.count)
        rowGuards = FlatCode.store(guards)
        rowGuardStarts = FlatCode.store(guardStarts)
        rowDraws = FlatCode.store(program.placements.flatMap { $0.rows.map(\.split) })
        var shown: [DecisionShown] = []
        var shownStart: [Int] = []
        for placement in program.placements {
            for (index, row) in placement.rows.enumerated() {
                shownStart.append(shown.count)
                if let plan = row.split {
                    shown.append(DecisionShown(.shown(by: row, at: index, step: nil)))
                    for step in plan.steps.indices { shown.append(DecisionShown(.shown(by: row, at: index, step: step))) }
                } else {
                    shown.append(DecisionShown(.shown(by: row, at: index, step: nil)))
                }
            }
        }
        rowShown = FlatCode.store(shown)
        rowShownStart = FlatCode.store(shownStart)
        placementNames = ContiguousArray(program.placements.map(\.name))
        coveredByHoldout = FlatCode.store(program.placements.map(\.isCoveredByHoldout))
        holdout = program.holdout
        reportsExperiments = program.reportsExperiments
        self.code = FlatCode.store(Array(code))
        self.tests = FlatCode.store(tests)
        self.kinds = FlatCode.store(kinds)
        literalTables = FlatCode.store(tables.map(\.table))
        self.keepsFullValue = FlatCode.store(keepsFullValue)
        slotCount = program.slots.count
        layers = program.layers
        // Per prerequisite, in `rowShown` order: each row (a drawing row's entry without an
        // outcome is never a decision), then each variant of its draw.
        var accepts: [Bool] = []
        var starts: [Int] = []
        for test in program.prerequisites {
            starts.append(accepts.count)
            accepts.append(test.acceptsNoMatch)
            for (row, steps) in zip(program.placements[test.placement].rows, test.accepts) {
                if row.split != nil {
                    accepts.append(false)
                    accepts += steps
                } else {
                    accepts.append(steps[0])
                }
            }
        }
        var rowRanges: [Range<Int>?] = []
        var acceptedRows: [Int] = []
        for test in program.prerequisites {
            let plan = program.placements[test.placement]
            let audiencesOnly = !plan.isCoveredByHoldout && plan.rows.allSatisfy { row in
                row.split == nil && row.guards.allSatisfy { if case .audience = $0 { true } else { false } }
            }
            guard audiencesOnly, !test.acceptsNoMatch else { rowRanges.append(nil); continue }
            let start = acceptedRows.count
            acceptedRows += plan.rows.indices.filter { test.accepts[$0][0] }
            rowRanges.append(start..<acceptedRows.count)
        }
        prerequisiteRowRanges = FlatCode.store(rowRanges)
        prerequisiteRows = FlatCode.store(acceptedRows)
        prerequisitePlacements = FlatCode.store(program.prerequisites.map(\.placement))
        prerequisiteAccepts = FlatCode.store(accepts)
        prerequisiteStarts = FlatCode.store(starts)
        var dependencies: [Int] = []
        var dependencyRanges: [Range<Int>] = []
        for placement in program.placementDependencies {
            dependencyRanges.append(dependencies.count..<(dependencies.count + placement.count))
            dependencies += placement
        }
        self.dependencies = FlatCode.store(dependencies)
        self.dependencyRanges = FlatCode.store(dependencyRanges)
    }

    /// Whether prerequisite `index` accepts `choice` of its placement (`PrerequisiteTest.holds`).
    @inline(__always)
    func prerequisite(_ index: Int, accepts choice: Choice) -> Bool {
        let start = prerequisiteStarts[index]
        guard let row = choice.row else { return prerequisiteAccepts[start] }
        let placement = prerequisitePlacements[index]
        let first = rowShownStart[placementRows[placement].lowerBound]
        let entry = rowShownStart[placementRows[placement].lowerBound + row] - first
        return prerequisiteAccepts[start + 1 + entry + (choice.step.map { 1 + $0 } ?? 0)]
    }

    deinit {
        FlatCode.free(code)
        FlatCode.free(tests)
        FlatCode.free(kinds)
        FlatCode.free(keepsFullValue)
        FlatCode.free(segmentCode)
        FlatCode.free(audienceCode)
        FlatCode.free(segmentChildren)
        FlatCode.free(segmentChildRanges)
        FlatCode.free(placementRows)
        FlatCode.free(rowGuards)
        FlatCode.free(rowGuardStarts)
        FlatCode.free(rowDraws)
        FlatCode.free(rowShown)
        FlatCode.free(rowShownStart)
        FlatCode.free(literalTables)
        FlatCode.free(coveredByHoldout)
        FlatCode.free(prerequisitePlacements)
        FlatCode.free(prerequisiteRowRanges)
        FlatCode.free(prerequisiteRows)
        FlatCode.free(prerequisiteAccepts)
        FlatCode.free(prerequisiteStarts)
        FlatCode.free(dependencies)
        FlatCode.free(dependencyRanges)
    }

    /// The decision a choice spells out for placement `index`.
    package func decision(placement index: Int, choice: Choice, profileID: String?) -> Decision {
        var shown = noMatch
        if let rowIndex = choice.row {
            let start = rowShownStart[placementRows[index].lowerBound + rowIndex]
            shown = rowShown[choice.step.map { start + 1 + $0 } ?? start]
        }
        return Decision(placement: placementNames[index], profileID: profileID, shown: shown, heldOut: choice.heldOut,
                        heldOutBy: choice.heldOut ? holdout?.name : nil, reportsExperiments: reportsExperiments,
                        isSticky: choice.sticky)
    }

    /// A buffer holding a copy of `items`, owned by this object.
    static func store<T>(_ items: [T]) -> UnsafeBufferPointer<T> {
        let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, items.count))
        _ = buffer.initialize(from: items)
        return UnsafeBufferPointer(rebasing: buffer[0..<items.count])
    }

    /// Releases a buffer made by `store`.
    static func free<T>(_ buffer: UnsafeBufferPointer<T>) {
        let mutable = UnsafeMutableBufferPointer(mutating: buffer)
        mutable.deinitialize()
        mutable.baseAddress?.deallocate()
    }
}
