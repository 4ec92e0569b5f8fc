import TargetingProfiles

extension Program {
    /// Resolves placement `index` for `profile` at `now` (Unix ms) on the flat code: the same
    /// answer as `Evaluator.resolve`, with slots read only when a test needs them.
    package func decide(placement index: Int, for profile: Profile, now: Int64) -> Result<Decision, ResolveError> {
        // The run hands back only the choice (a few words); the decision is spelt out here.
        withRun(for: profile, now: now) { run in run.choose(placement: index) }
            .map { flat.decision(placement: index, choice: $0, profileID: profile.id) }
    }

    /// Resolves each of `placements` for `profile`, sharing slot reads and segment results; the
    /// first failure (a split without a profile id) ends it.
    package func decide(placements indices: [Int], for profile: Profile, now: Int64) -> Result<[Decision], ResolveError> {
        withRun(for: profile, now: now) { run in
            var decisions: [Decision] = []
            decisions.reserveCapacity(indices.count)
            for index in indices {
                switch run.resolve(placement: index) {
                case .success(let decision): decisions.append(decision)
                case .failure(let error): return .failure(error)
                }
            }
            return .success(decisions)
        }
    }

    /// Chooses each of `placements` for `profile` at `now`, handing `body` each placement and
    /// choice in order; returns the first failure (a split without a profile id), which ends it.
    package func choose(placements indices: [Int], for profile: Profile, now: Int64, _ body: (Int, Choice) -> Void) -> ResolveError? {
        indices.withUnsafeBufferPointer { chooseEach($0, for: profile, now: now, body) }
    }

    /// `choose(placements:for:now:_:)` for a profile line scanned in place.
    package func choose(placements indices: [Int], for profile: ScannedProfile, now: Int64, _ body: (Int, Choice) -> Void) -> ResolveError? {
        indices.withUnsafeBufferPointer { chooseEach($0, for: profile, now: now, body) }
    }

    // One generic body, specialised here for each concrete source above. The indices come as a
    // buffer, which the run's closures capture without retaining (the batch's threads share
    // the array, and a retain of a shared object is a write to a cache line all cores read).
    private func chooseEach<Source: SlotSource>(_ indices: UnsafeBufferPointer<Int>, for profile: Source, now: Int64,
                                                _ body: (Int, Choice) -> Void) -> ResolveError? {
        withRun(for: profile, now: now) { run in
            for index in indices {
                switch run.choose(placement: index) {
                case .success(let choice): body(index, choice)
                case .failure(let error): return error
                }
            }
            return nil
        }
    }

    /// Runs `body` on a fresh evaluation of `profile`: its slot values and segment results live
    /// on the stack, and the code is reached through buffer pointers (no copies, no retains).
    func withRun<Source: SlotSource, Result>(for profile: Source, now: Int64, _ body: (inout FlatRun<Source>) -> Result) -> Result {
        // Borrowed for the run, not retained: the code is shared by every thread of a batch, and
        // a retain of a shared object is a write to a cache line both cores read.
        Unmanaged.passUnretained(flat)._withUnsafeGuaranteedRef { flat in withRun(flat, for: profile, now: now, body) }
    }

    private func withRun<Source: SlotSource, Result>(_ flat: FlatCode, for profile: Source, now: Int64,
                                                     _ body: (inout FlatRun<Source>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: SlotValue.self, capacity: max(1, flat.slotCount)) { values in
            // Full values are kept for few slots: each is initialised when kept, and only those
            // are deinitialised (cheaper than a whole buffer of optionals each time).
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: max(1, flat.slotCount)) { kept in
                kept.initialize(repeating: false)
                defer {
                    for slot in kept.indices where kept[slot] { (values.baseAddress! + slot).deinitialize(count: 1) }
                }
                return withUnsafeTemporaryAllocation(of: FastValue.self, capacity: max(1, flat.slotCount)) { fast in
                    fast.initialize(repeating: FastValue())
                    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, flat.segmentCode.count)) { segments in
                        segments.initialize(repeating: 0)
                        func start(_ decided: UnsafeMutableBufferPointer<PlacementMemo>) -> Result {
                            slots.withUnsafeBufferPointer { slots in
                                withUnsafePointer(to: profile) { profile in
                                    var run = FlatRun(flat: flat, profile: profile, now: now, slots: slots, values: values, kept: kept,
                                                      fast: fast, segments: segments, decided: decided)
                                    return body(&run)
                                }
                            }
                        }
                        // Decisions a prerequisite asked for: room only in a program with prerequisites.
                        guard !flat.prerequisitePlacements.isEmpty else { return start(UnsafeMutableBufferPointer(start: nil, count: 0)) }
                        return withUnsafeTemporaryAllocation(of: PlacementMemo.self, capacity: flat.placementRows.count) { decided in
                            decided.initialize(repeating: .unknown)
                            defer { decided.deinitialize() }
                            return start(decided)
                        }
                    }
                }
            }
        }
    }

    /// One decision per placement (a split that cannot choose gives the audience and split id
    /// and no outcome), sharing slot reads and segment results across placements.
    package func decideAll(for profile: Profile, now: Int64) -> [Decision] {
        withRun(for: profile, now: now) { run in
            placements.indices.map { index in
                switch run.resolve(placement: index) {
                case .success(let decision): return decision
                case .failure(let error):
                    var decision = Decision(placement: placements[index].name, profileID: profile.profileID)
                    decision.reportsExperiments = reportsExperiments
                    decision.heldOut = run.isHeldOut(placement: index)
                    if decision.heldOut { decision.heldOutBy = holdout?.name }
                    if let row = run.matchingRow(placement: index) {
                        decision.row = row
                        decision.audience = placements[index].rows[row].source.audience.name
                    }
                    switch error {
                    case .splitNeedsProfileID(let split): decision.split = split
                    case .experimentNeedsProfileID(let experiment): decision.experiment = experiment
                    case .unknownPlacement: break
                    }
                    return decision
                }
            }
        }
    }
}

/// Which row of a placement decided for one profile and, for a split, which variant: the
/// decision as indices, which `FlatCode.decision(placement:choice:profileID:)` spells out.
package struct Choice: Hashable, Sendable {
    /// The deciding row, or nil when none matched.
    package var row: Int?
    /// For a split or experiment row, the variant's index in its plan's steps.
    package var step: Int?
    /// Whether the holdout held the profile out of the placement.
    package var heldOut: Bool
    /// Whether a sticky experiment's recorded assignment chose the row and variant.
    package var sticky: Bool

    package init(row: Int? = nil, step: Int? = nil, heldOut: Bool = false, sticky: Bool = false) {
        self.row = row
        self.step = step
        self.heldOut = heldOut
        self.sticky = sticky
    }
}

/// What a draw gives one profile: its bucket, or why there is none.
enum FlatDraw {
    case bucket(Int)
    /// The key is `profile.id` and the profile has none.
    case missingProfileID
    /// Another key that the profile has no string value for.
    case absent
}

/// The state of one profile's evaluation on flat code: slot values and segment results
/// (0 unknown, 1 false, 2 true), both in caller-provided stack memory.
package struct FlatRun<Source: SlotSource> {
    unowned(unsafe) let flat: FlatCode
    /// The profile, borrowed for the run (read through `pointee`, so reading copies nothing).
    let profile: UnsafePointer<Source>
    let now: Int64
    let slots: UnsafeBufferPointer<Slot>
    /// Full slot values, kept for slots that a general test may read (initialised where `kept`).
    let values: UnsafeMutableBufferPointer<SlotValue>
    /// Whether slot `i`'s full value is in `values`.
    let kept: UnsafeMutableBufferPointer<Bool>
    /// Plain slot values (`.unread` until a test needs the slot).
    let fast: UnsafeMutableBufferPointer<FastValue>
    let segments: UnsafeMutableBufferPointer<UInt8>
    /// Per placement a prerequisite asked about: its decision (empty without prerequisites).
    let decided: UnsafeMutableBufferPointer<PlacementMemo>
    /// The holdout's draw for this profile, once known (0 unknown, 1 not held out, 2 held out).
    var heldOutState: UInt8 = 0

    /// The row of placement `index` that takes the profile, if any (`FlatCode.enteredRow`).
    mutating func matchingRow(placement index: Int) -> Int? {
        let heldOut = isHeldOut(placement: index)
        // Borrowed as the run borrows it: no retain per question.
        return Unmanaged.passUnretained(flat)._withUnsafeGuaranteedRef { $0.enteredRow(placement: index, heldOut: heldOut, &self)?.row }
    }

    /// Whether the holdout covers placement `index` and holds this profile out.
    mutating func isHeldOut(placement index: Int) -> Bool {
        guard flat.coveredByHoldout[index] else { return false }
        if heldOutState == 0 {
            // The plan is copied (its strings retained) once per profile, not once per question.
            guard let holdout = flat.holdout else { return false }
            var heldOut = false
            if case .bucket(let bucket) = draw(holdout.key, id: holdout.name) { heldOut = holdout.holdsOut(bucket: bucket) }
            heldOutState = heldOut ? 2 : 1
        }
        return heldOutState == 2
    }

    /// What a draw named `id` on `key` gives this profile (as `DrawInput.of` and
    /// `SplitDraw.bucket` would), with the key's text hashed where it lies.
    func draw(_ key: DrawKey, id: String) -> FlatDraw {
        switch key {
        case .profileID:
            guard let profileID = profile.pointee.profileID else { return .missingProfileID }
            return .bucket(SplitDraw.bucket(splitID: id, profileID: profileID))
        case .slot(let slot):
            return withKeyBytes(slot: slot) { FlatDraw.bucket(SplitDraw.bucket(splitID: id, key: $0)) } ?? .absent
        }
    }

    /// Calls `body` with the UTF-8 bytes of key slot `slot`'s text; nil when the profile has
    /// no string there (`DrawInput.absent`).
    func withKeyBytes<R>(slot: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        let pointer = slots.baseAddress! + slot
        func text(_ stored: PlainStored) -> R? {
            if case .text(let bytes) = stored { return body(bytes) }
            return nil
        }
        switch pointer.pointee.plainRead {
        case .custom where pointer.pointee.type == .string || pointer.pointee.type == nil:
            return Source.withCustomPlain(profile, pointer, text)
        case .builtin where pointer.pointee.builtinType == .string:
            return Source.withFieldPlain(profile, pointer, text)
        case .custom, .builtin, .derived, .history:
            // Typed otherwise, derived (an age), or read from the history: read in full.
            guard case .string(let value) = pointer.pointee.read(from: profile.pointee, now: now) else { return nil }
            return PlainStored.withText(value, text)
        }
    }

    mutating func resolve(placement index: Int) -> Result<Decision, ResolveError> {
        choose(placement: index).map { flat.decision(placement: index, choice: $0, profileID: profile.pointee.profileID) }
    }

    /// The row and variant that decide placement `index`; a split fails without a profile id.
    package mutating func choose(placement index: Int) -> Result<Choice, ResolveError> {
        // Borrowed as the run borrows it: no retain per choice.
        return Unmanaged.passUnretained(flat)._withUnsafeGuaranteedRef { $0.choose(placement: index, &self) }
    }

    mutating func audienceMatches(_ audience: Int) -> Bool {
        run(flat.audienceCode[audience], depth: 0)
    }

    /// Segments nest this deep by recursion; deeper chains are settled without it.
    static var maxRecursion: Int { 32 }

    /// The result of `segment`, evaluated on first use: by recursion while shallow, and below
    /// `maxRecursion` by an explicit walk that settles every segment it depends on first, so a
    /// long chain of segments cannot exhaust a thread's stack.
    mutating func segment(_ segment: Int, depth: Int) -> Bool {
        if segments[segment] == 0 {
            if depth >= FlatRun.maxRecursion { settleDependencies(of: segment) }
            segments[segment] = run(flat.segmentCode[segment], depth: depth + 1) ? 2 : 1
        }
        return segments[segment] == 2
    }

    /// Evaluates every unknown segment `segment` depends on, dependencies first, without recursion.
    mutating func settleDependencies(of segment: Int) {
        var stack: [(segment: Int, next: Int)] = [(segment, flat.segmentChildRanges[segment].lowerBound)]
        while let top = stack.last {
            let children = flat.segmentChildRanges[top.segment]
            if top.next < children.upperBound {
                stack[stack.count - 1].next += 1
                let child = flat.segmentChildren[top.next]
                if segments[child] == 0 { stack.append((child, flat.segmentChildRanges[child].lowerBound)) }
                continue
            }
            stack.removeLast()
            // Its children are all known, so running it does not recurse.
            if top.segment != segment, segments[top.segment] == 0 {
                segments[top.segment] = run(flat.segmentCode[top.segment], depth: 0) ? 2 : 1
            }
        }
    }

    /// Runs the instructions in `range` (at recursion `depth`); segments they name are evaluated on first use.
    mutating func run(_ range: Range<Int>, depth: Int) -> Bool {
        var acc = false
        var pc = range.lowerBound
        let end = range.upperBound
        while pc < end {
            let instruction = flat.code[pc]
            switch instruction.op {
            case .test: acc = test(Int(instruction.operand))
            case .segment: acc = segment(Int(instruction.operand), depth: depth)
            case .jumpIfFalse:
                if !acc { pc = Int(instruction.operand); continue }
            case .jumpIfTrue:
                if acc { pc = Int(instruction.operand); continue }
            case .not: acc = !acc
            case .constant: acc = instruction.operand != 0
            case .prerequisite: acc = prerequisite(Int(instruction.operand))
            }
            pc += 1
        }
        return acc
    }

    /// Whether prerequisite `index` holds: its placement is decided once per profile, after
    /// the placements it depends on (so deciding never nests deeper than one prerequisite).
    mutating func prerequisite(_ index: Int) -> Bool {
        let placement = flat.prerequisitePlacements[index]
        // A placement whose rows only ask for an audience, asked whether some rows decide: the
        // first of those rows whose audience matches decides unless a row above it matches
        // (the accepted rows' audiences first, as a hand-written condition would ask them).
        if let accepted = flat.prerequisiteRowRanges[index], decided[placement].isUnknown {
            let rows = flat.placementRows[placement]
            for position in accepted {
                let row = flat.prerequisiteRows[position]
                guard rowAudiencesMatch(rows.lowerBound + row) else { continue }
                for above in rows.lowerBound..<(rows.lowerBound + row) where rowAudiencesMatch(above) { return false }
                return true
            }
            return false
        }
        if decided[placement].isUnknown {
            for position in flat.dependencyRanges[placement] {
                let dependency = flat.dependencies[position]
                if decided[dependency].isUnknown { decided[dependency] = PlacementMemo(choose(placement: dependency)) }
            }
            decided[placement] = PlacementMemo(choose(placement: placement))
        }
        guard case .chosen(let choice) = decided[placement] else { return false }
        return flat.prerequisite(index, accepts: choice)
    }

    /// Whether every guard of row `row` (of the flat code: all placements), each an audience,
    /// matches.
    mutating func rowAudiencesMatch(_ row: Int) -> Bool {
        for position in flat.rowGuardStarts[row]..<flat.rowGuardStarts[row + 1] {
            guard case .audience(let audience) = flat.rowGuards[position], audienceMatches(audience) else { return false }
        }
        return true
    }

    /// The profile's bucket in layer `layer`, or nil when it has no value for the layer's key.
    func layerBucket(_ layer: Int) -> Int? {
        let plan = flat.layers[layer]
        if case .bucket(let bucket) = draw(plan.key, id: plan.name) { return bucket }
        return nil
    }

    /// Runs test `index` with the two-valued semantics (README, *Segments and audiences*).
    mutating func test(_ index: Int) -> Bool {
        let test = flat.tests.baseAddress! + index
        let slot = Int(test.pointee.slot)
        let value: FastValue
        if slot < 0 {
            value = FastValue(now: now)
        } else {
            if fast[slot].tag == .unread { load(slot) }
            value = fast[slot]
        }
        if test.pointee.op != .general, let result = test.pointee.holds(value, now: now) { return result }
        let full: SlotValue = slot < 0 ? .date(now) : fullValue(slot)
        return CompiledTest.outcome(flat.kinds[index], negated: test.pointee.negated, on: full, now: now)
    }

    /// Slot `slot`'s full value: kept by `load` for a slot with general tests, and read here on
    /// first need otherwise (a version test on a pre-release).
    mutating func fullValue(_ slot: Int) -> SlotValue {
        if kept[slot] { return values[slot] }
        let value = (slots.baseAddress! + slot).pointee.read(from: profile.pointee, now: now)
        keep(value, slot: slot)
        return value
    }

    /// Reads slot `slot` once: its plain form, and its full value when a general test needs it.
    mutating func load(_ slot: Int) {
        guard flat.keepsFullValue[slot] else {
            fast[slot] = Slot.readPlain(slots.baseAddress! + slot, from: profile, now: now, table: flat.literalTables.baseAddress! + slot)
            return
        }
        let value = (slots.baseAddress! + slot).pointee.read(from: profile.pointee, now: now)
        fast[slot] = FastValue(value, table: flat.literalTables.baseAddress! + slot)
        keep(value, slot: slot)
    }

    /// Keeps `value` as slot `slot`'s full value.
    func keep(_ value: SlotValue, slot: Int) {
        if kept[slot] {
            values[slot] = value
        } else {
            (values.baseAddress! + slot).initialize(to: value)
            kept[slot] = true
        }
    }
}
