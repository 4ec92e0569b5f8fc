import TargetingProfiles

extension Program {
    /// Resolves placement `index` for `profile` at `now` (Unix ms) on the flat code: the same
    /// answer as `Evaluator.resolve`, with slots read only when a test needs them.
    package func decide(placement index: Int, for profile: Profile, now: Int64) -> Result<Decision, ResolveError> {
        let flat: FlatCode = self.flat
        return withUnsafeTemporaryAllocation(of: SlotValue?.self, capacity: max(1, flat.slotCount)) { slots in
            slots.initialize(repeating: nil)
            defer { slots.deinitialize() }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, flat.segmentCode.count)) { segments in
                segments.initialize(repeating: 0)
                var run = FlatRun(flat: flat, program: self, profile: profile, now: now, slots: slots, segments: segments)
                return run.resolve(placement: index)
            }
        }
    }

    /// One decision per placement (a split that cannot choose gives the audience and split id
    /// and no outcome), sharing slot reads and segment results across placements.
    package func decideAll(for profile: Profile, now: Int64) -> [Decision] {
        let flat: FlatCode = self.flat
        return withUnsafeTemporaryAllocation(of: SlotValue?.self, capacity: max(1, flat.slotCount)) { slots in
            slots.initialize(repeating: nil)
            defer { slots.deinitialize() }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, flat.segmentCode.count)) { segments in
                segments.initialize(repeating: 0)
                var run = FlatRun(flat: flat, program: self, profile: profile, now: now, slots: slots, segments: segments)
                return placements.indices.map { index in
                    switch run.resolve(placement: index) {
                    case .success(let decision): return decision
                    case .failure(let error):
                        var decision = Decision(placement: placements[index].name, profileID: profile.id)
                        if let row = run.matchingRow(placement: index) {
                            decision.row = row
                            decision.audience = placements[index].rows[row].source.audience.name
                        }
                        if case .splitNeedsProfileID(let split) = error { decision.split = split }
                        return decision
                    }
                }
            }
        }
    }
}

/// The state of one profile's evaluation on flat code: slot values and segment results
/// (0 unknown, 1 false, 2 true), both in caller-provided stack memory.
struct FlatRun {
    let flat: FlatCode
    let program: Program
    let profile: Profile
    let now: Int64
    let slots: UnsafeMutableBufferPointer<SlotValue?>
    let segments: UnsafeMutableBufferPointer<UInt8>

    /// The first row whose audience matches, if any.
    mutating func matchingRow(placement index: Int) -> Int? {
        let rows = flat.rowAudiences[index]
        for row in rows.indices where rows[row] < 0 || audienceMatches(rows[row]) { return row }
        return nil
    }

    mutating func resolve(placement index: Int) -> Result<Decision, ResolveError> {
        let placement = program.placements[index]
        var decision = Decision(placement: placement.name, profileID: profile.id)
        guard let rowIndex = matchingRow(placement: index) else { return .success(decision) }
        let row = placement.rows[rowIndex]
        decision.row = rowIndex
        decision.audience = row.source.audience.name
        switch Evaluator.outcome(of: row.source.destination, split: row.split, profileID: decision.profileID) {
        case .failure(let error): return .failure(error)
        case .success(let (outcome, split)):
            decision.outcome = outcome
            decision.split = split
            return .success(decision)
        }
    }

    mutating func audienceMatches(_ audience: Int) -> Bool {
        for position in flat.audienceSegmentRanges[audience] {
            let segment = flat.audienceSegments[position]
            if segments[segment] == 0 { segments[segment] = run(flat.segmentCode[segment]) ? 2 : 1 }
        }
        return run(flat.audienceCode[audience])
    }

    /// Runs the instructions in `range`; segments they name are already known.
    mutating func run(_ range: Range<Int>) -> Bool {
        var acc = false
        var pc = range.lowerBound
        let end = range.upperBound
        while pc < end {
            let instruction = flat.code[pc]
            switch instruction.op {
            case .test: acc = test(Int(instruction.operand))
            case .segment: acc = segments[Int(instruction.operand)] == 2
            case .jumpIfFalse:
                if !acc { pc = Int(instruction.operand); continue }
            case .jumpIfTrue:
                if acc { pc = Int(instruction.operand); continue }
            case .not: acc = !acc
            case .constant: acc = instruction.operand != 0
            }
            pc += 1
        }
        return acc
    }

    /// Runs test `index` with the two-valued semantics of SPEC §4.4.
    mutating func test(_ index: Int) -> Bool {
        let slot = flat.tests[index].slot
        let value: SlotValue
        if slot < 0 {
            value = .date(now)
        } else if let known = slots[slot] {
            value = known
        } else {
            value = program.slots[slot].read(from: profile, now: now)
            slots[slot] = value
        }
        if case .isSet = flat.tests[index].kind { return value.isPresent != flat.tests[index].negated }
        guard let result = Evaluator.compare(value, flat.tests[index].kind, now: now) else { return false }
        return result != flat.tests[index].negated
    }
}
