/// The hot-path form of a compiled program: every condition as instructions over one
/// contiguous array, tests without their source nodes, and rows by audience index. One
/// reference holds it all, so a decision retains one object, walks no tree and allocates
/// nothing on the heap (slot values and segment results live on the stack).
///
/// Conditions run on one boolean accumulator: `and`/`or` become conditional jumps past the
/// rest of their operands, so evaluation short-circuits exactly as the tree does.
package final class FlatCode: Sendable {
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
        }

        package var op: Op
        package var operand: Int32
    }

    /// A test as it runs: slot and typed comparison, without the source node.
    package struct Test: Sendable {
        package var slot: Int
        package var kind: CompiledTest.Kind
        package var negated: Bool
    }

    /// The instructions of every condition.
    package let code: ContiguousArray<Instruction>
    /// The tests instructions refer to.
    package let tests: ContiguousArray<Test>
    /// Each segment's instructions (a range of `code`).
    package let segmentCode: ContiguousArray<Range<Int>>
    /// Each audience's instructions.
    package let audienceCode: ContiguousArray<Range<Int>>
    /// The segments each audience needs, dependencies first (flattened; ranges per audience).
    package let audienceSegments: ContiguousArray<Int>
    package let audienceSegmentRanges: ContiguousArray<Range<Int>>
    /// Per placement, per row: the audience index, or -1 for `everyone`.
    package let rowAudiences: ContiguousArray<ContiguousArray<Int>>
    /// The number of slots.
    package let slotCount: Int

    init(_ program: Program) {
        var code = ContiguousArray<Instruction>()
        var tests = ContiguousArray<Test>()
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
            case .test(let test):
                code.append(Instruction(op: .test, operand: Int32(tests.count)))
                tests.append(Test(slot: test.slot, kind: test.kind, negated: test.negated))
            }
        }
        func compiled(_ condition: Condition) -> Range<Int> {
            let start = code.count
            emit(condition)
            return start..<code.count
        }
        segmentCode = ContiguousArray(program.segments.map { compiled($0.condition) })
        audienceCode = ContiguousArray(program.audiences.map { compiled($0.condition) })
        var segments = ContiguousArray<Int>()
        var ranges = ContiguousArray<Range<Int>>()
        for audience in program.audiences {
            let start = segments.count
            segments.append(contentsOf: audience.segmentOrder)
            ranges.append(start..<segments.count)
        }
        audienceSegments = segments
        audienceSegmentRanges = ranges
        rowAudiences = ContiguousArray(program.placements.map { ContiguousArray($0.rows.map { $0.audience ?? -1 }) })
        self.code = code
        self.tests = tests
        slotCount = program.slots.count
    }
}
