/// A pattern compiled for matching in time linear in the value: a Thompson NFA over the spans
/// of a `ScalarAlphabet`, turned into a DFA when that stays within a state budget. Matching
/// never backtracks: the DFA reads each scalar once, and the NFA (the fallback for patterns
/// whose DFA would be too large) steps a set of at most `stateCount` states per scalar.
package struct PatternAutomaton: Hashable, Sendable {
    /// The alphabet the transitions read.
    package let alphabet: ScalarAlphabet
    /// The deterministic form, when it fits the budget.
    package let dfa: DFA?
    /// The nondeterministic form, always built.
    let nfa: NFA

    /// The most DFA states built before matching falls back to the NFA.
    package static let defaultStateBudget = 4_096

    /// Compiles `node` over `alphabet` (by default, the alphabet of the node's own sets).
    package init(_ node: PatternNode, alphabet: ScalarAlphabet? = nil, stateBudget: Int = PatternAutomaton.defaultStateBudget) {
        let alphabet = alphabet ?? ScalarAlphabet(node.scalarSets)
        self.alphabet = alphabet
        nfa = NFA(node, alphabet: alphabet)
        dfa = DFA(nfa, budget: stateBudget)
    }

    /// Whether the whole of `text` matches.
    package func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { matches(utf8: $0) }
    }

    /// Whether the whole of the valid UTF-8 text `bytes` matches.
    package func matches(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if let dfa { return dfa.matches(bytes, alphabet: alphabet) }
        return nfa.matches(bytes, alphabet: alphabet)
    }
}

/// Decodes the scalar starting at `index` of valid UTF-8, returning its value and advancing.
@inline(__always)
func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> UInt32 {
    let lead = UInt32(bytes[index])
    if lead < 0x80 {
        index += 1
        return lead
    }
    if lead < 0xE0 {
        let value = (lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
        index += 2
        return value
    }
    if lead < 0xF0 {
        let value = (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
        index += 3
        return value
    }
    let value = (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12 | UInt32(bytes[index + 2] & 0x3F) << 6
        | UInt32(bytes[index + 3] & 0x3F)
    index += 4
    return value
}

extension PatternAutomaton {
    /// A Thompson NFA: each state either reads one span of a set and moves on, or moves on
    /// without reading (to one or two states), or accepts.
    struct NFA: Hashable, Sendable {
        /// For a reading state, the spans it reads (sorted); empty for the others.
        var reads: [[Int32]] = []
        /// The state after a read.
        var next: [Int32] = []
        /// The states reached without reading.
        var epsilon: [[Int32]] = []
        /// The accepting state.
        var accept: Int32 = 0
        /// The start state.
        var start: Int32 = 0
        /// How many spans the alphabet has.
        var spanCount = 0

        var stateCount: Int { reads.count }

        init(_ node: PatternNode, alphabet: ScalarAlphabet) {
            spanCount = alphabet.count
            accept = newState()
            var spanCache: [ScalarSet: [Int32]] = [:]
            start = build(node, then: accept, alphabet: alphabet, cache: &spanCache)
        }

        private mutating func newState() -> Int32 {
            reads.append([])
            next.append(-1)
            epsilon.append([])
            return Int32(reads.count - 1)
        }

        /// Builds `node` so that it continues at `then`; returns its entry state.
        private mutating func build(_ node: PatternNode, then: Int32, alphabet: ScalarAlphabet, cache: inout [ScalarSet: [Int32]]) -> Int32 {
            switch node {
            case .empty:
                return then
            case .set(let set):
                let state = newState()
                if let known = cache[set] {
                    reads[Int(state)] = known
                } else {
                    let spans = alphabet.spans(in: set).map { Int32($0) }
                    cache[set] = spans
                    reads[Int(state)] = spans
                }
                next[Int(state)] = then
                return state
            case .sequence(let items):
                var entry = then
                for item in items.reversed() { entry = build(item, then: entry, alphabet: alphabet, cache: &cache) }
                return entry
            case .alternation(let branches):
                let fork = newState()
                var targets: [Int32] = []
                for branch in branches { targets.append(build(branch, then: then, alphabet: alphabet, cache: &cache)) }
                epsilon[Int(fork)] = targets
                return fork
            case .repetition(let inner, let min, let max):
                var entry = then
                if let max {
                    // The optional copies, innermost last: each may stop and go to `then`.
                    for _ in 0..<(max - min) {
                        let fork = newState()
                        let body = build(inner, then: entry, alphabet: alphabet, cache: &cache)
                        epsilon[Int(fork)] = [body, then]
                        entry = fork
                    }
                } else {
                    // A loop: read the inner node and come back, or leave.
                    let loop = newState()
                    let body = build(inner, then: loop, alphabet: alphabet, cache: &cache)
                    epsilon[Int(loop)] = [body, then]
                    entry = loop
                }
                for _ in 0..<min { entry = build(inner, then: entry, alphabet: alphabet, cache: &cache) }
                return entry
            }
        }

        /// Adds `state` and every state reachable from it without reading to `set`.
        func close(_ state: Int32, into set: inout [Int32], seen: inout [Bool], stack: inout [Int32]) {
            stack.append(state)
            while let top = stack.popLast() {
                guard !seen[Int(top)] else { continue }
                seen[Int(top)] = true
                set.append(top)
                for target in epsilon[Int(top)].reversed() where !seen[Int(target)] { stack.append(target) }
            }
        }

        /// Whether span `span` is one that `state` reads.
        func reads(_ state: Int32, _ span: Int32) -> Bool {
            let list = reads[Int(state)]
            var low = 0
            var high = list.count
            while low < high {
                let middle = (low + high) / 2
                if list[middle] < span { low = middle + 1 } else { high = middle }
            }
            return low < list.count && list[low] == span
        }

        func matches(_ bytes: UnsafeBufferPointer<UInt8>, alphabet: ScalarAlphabet) -> Bool {
            var seen = [Bool](repeating: false, count: stateCount)
            var stack: [Int32] = []
            var current: [Int32] = []
            close(start, into: &current, seen: &seen, stack: &stack)
            for state in current { seen[Int(state)] = false }
            var following: [Int32] = []
            var index = 0
            while index < bytes.count {
                let span = Int32(alphabet.span(of: decodeScalar(bytes, &index)))
                following.removeAll(keepingCapacity: true)
                for state in current where reads(state, span) {
                    close(next[Int(state)], into: &following, seen: &seen, stack: &stack)
                }
                for state in following { seen[Int(state)] = false }
                if following.isEmpty { return false }
                swap(&current, &following)
            }
            return current.contains(accept)
        }
    }

    /// A DFA over the alphabet's spans: state 0 is the start; `-1` is the dead state, from
    /// which nothing is accepted.
    package struct DFA: Hashable, Sendable {
        /// How many spans each state has a transition for.
        package let spanCount: Int
        /// `transitions[state * spanCount + span]`: the next state, or -1.
        package let transitions: [Int32]
        /// Whether each state accepts.
        package let accepting: [Bool]

        /// The number of states.
        package var stateCount: Int { accepting.count }

        /// The state after reading span `span` in `state`, or -1.
        @inline(__always)
        package func next(_ state: Int, _ span: Int) -> Int { Int(transitions[state * spanCount + span]) }

        /// Builds the DFA of `nfa` by subset construction; nil when it needs more than `budget` states.
        init?(_ nfa: NFA, budget: Int) {
            var builder = SubsetConstruction(nfa, budget: budget)
            guard builder.run() else { return nil }
            spanCount = nfa.spanCount
            transitions = builder.transitions
            accepting = builder.accepting
        }

        /// Whether the DFA accepts the valid UTF-8 text `bytes`.
        @inline(__always)
        func matches(_ bytes: UnsafeBufferPointer<UInt8>, alphabet: ScalarAlphabet) -> Bool {
            var state = 0
            var index = 0
            let count = bytes.count
            return transitions.withUnsafeBufferPointer { table in
                while index < count {
                    let byte = bytes[index]
                    let span: Int
                    if byte < 0x80 {
                        span = Int(alphabet.asciiSpans[Int(byte)])
                        index += 1
                    } else {
                        span = alphabet.span(of: decodeScalar(bytes, &index))
                    }
                    state = Int(table[state * spanCount + span])
                    if state < 0 { return false }
                }
                return accepting[state]
            }
        }
    }
}

/// The subset construction behind `PatternAutomaton.DFA`, its working state in one value (so no
/// array is boxed by a closure that captures it).
///
/// A subset is kept as the sorted list of the reading states (and the accepting state) it
/// holds, since only those tell subsets apart. The lists live back to back in one array, found
/// by a hash of their members, so a subset met again costs no allocation; each state's closure
/// (the important states it reaches without reading) is computed once and kept the same way.
struct SubsetConstruction {
    let nfa: PatternAutomaton.NFA
    let budget: Int
    let important: [Bool]
    /// The spans each state reads, back to back: state `s` reads `readSpans[readStart[s]..<readStart[s + 1]]`.
    let readStart: [Int]
    let readSpans: [Int32]
    var closureStart: [Int32]
    var closureCount: [Int32]
    var closureMembers: [Int32] = []
    var seen: [Bool]
    var stack: [Int32] = []
    var reached: [Int32] = []
    var subsetMembers: [Int32] = []
    var subsetStart: [Int] = []
    var subsetsByHash: [UInt64: [Int32]] = [:]
    var candidate: [Int32] = []
    var stamp: [UInt32]
    var generation: UInt32 = 0
    var transitions: [Int32] = []
    var accepting: [Bool] = []

    init(_ nfa: PatternAutomaton.NFA, budget: Int) {
        self.nfa = nfa
        self.budget = budget
        let count = nfa.stateCount
        important = (0..<count).map { !nfa.reads[$0].isEmpty || Int32($0) == nfa.accept }
        var starts = [0]
        starts.reserveCapacity(count + 1)
        for reads in nfa.reads { starts.append(starts[starts.count - 1] + reads.count) }
        readStart = starts
        readSpans = nfa.reads.flatMap { $0 }
        closureStart = [Int32](repeating: -1, count: count)
        closureCount = [Int32](repeating: 0, count: count)
        seen = [Bool](repeating: false, count: count)
        stamp = [UInt32](repeating: 0, count: count)
    }

    /// Where the closure of `state` lies in `closureMembers`, computing it the first time.
    mutating func closure(_ state: Int32) -> Range<Int> {
        let known = Int(closureStart[Int(state)])
        if known >= 0 { return known..<(known + Int(closureCount[Int(state)])) }
        reached.removeAll(keepingCapacity: true)
        nfa.close(state, into: &reached, seen: &seen, stack: &stack)
        let start = closureMembers.count
        for member in reached {
            seen[Int(member)] = false
            if important[Int(member)] { closureMembers.append(member) }
        }
        closureMembers[start...].sort()
        closureStart[Int(state)] = Int32(start)
        closureCount[Int(state)] = Int32(closureMembers.count - start)
        return start..<closureMembers.count
    }

    /// The members of subset `subset`.
    func members(of subset: Int) -> Range<Int> {
        let end = subset + 1 < subsetStart.count ? subsetStart[subset + 1] : subsetMembers.count
        return subsetStart[subset]..<end
    }

    /// The number of the subset in `candidate` (sorted), adding it when new; nil past the budget.
    mutating func numberCandidate() -> Int32? {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for member in candidate { hash = (hash ^ UInt64(UInt32(bitPattern: member))) &* 0x0000_0100_0000_01B3 }
        if let known = subsetsByHash[hash] {
            for subset in known where subsetMembers[members(of: Int(subset))].elementsEqual(candidate) { return subset }
        }
        guard subsetStart.count < budget else { return nil }
        let fresh = Int32(subsetStart.count)
        subsetStart.append(subsetMembers.count)
        subsetMembers.append(contentsOf: candidate)
        accepting.append(candidate.contains(nfa.accept))
        subsetsByHash[hash, default: []].append(fresh)
        return fresh
    }

    /// Builds every subset reachable from the start; false past the budget.
    mutating func run() -> Bool {
        let spanCount = nfa.spanCount
        candidate = Array(closureMembers[closure(nfa.start)])
        guard numberCandidate() != nil else { return false }
        // Per subset: the states each span leads to, grouped by span (a counting sort).
        var perSpan = [Int](repeating: 0, count: spanCount + 1)
        var fill = perSpan
        var grouped: [Int32] = []
        var cursor = 0
        while cursor < subsetStart.count {
            let subset = members(of: cursor)
            cursor += 1
            for span in 0...spanCount { perSpan[span] = 0 }
            for index in subset {
                let state = Int(subsetMembers[index])
                for read in readStart[state]..<readStart[state + 1] { perSpan[Int(readSpans[read]) + 1] += 1 }
            }
            for span in 0..<spanCount { perSpan[span + 1] += perSpan[span] }
            if grouped.count < perSpan[spanCount] { grouped = [Int32](repeating: 0, count: perSpan[spanCount]) }
            for span in 0...spanCount { fill[span] = perSpan[span] }
            for index in subset {
                let state = Int(subsetMembers[index])
                let next = nfa.next[state]
                for read in readStart[state]..<readStart[state + 1] {
                    let span = Int(readSpans[read])
                    grouped[fill[span]] = next
                    fill[span] += 1
                }
            }
            var previous: (low: Int, high: Int, target: Int32) = (0, 0, -1)
            for span in 0..<spanCount {
                let low = perSpan[span], high = perSpan[span + 1]
                if low == high {
                    transitions.append(-1)
                    continue
                }
                // Spans read by the same states lead to the same subset.
                if high - low == previous.high - previous.low, grouped[low..<high].elementsEqual(grouped[previous.low..<previous.high]) {
                    transitions.append(previous.target)
                    continue
                }
                generation &+= 1
                candidate.removeAll(keepingCapacity: true)
                for index in low..<high {
                    let range = closure(grouped[index])
                    let current = generation
                    closureMembers.withUnsafeBufferPointer { members in
                        stamp.withUnsafeMutableBufferPointer { stamps in
                            for position in range {
                                let member = members[position]
                                if stamps[Int(member)] != current {
                                    stamps[Int(member)] = current
                                    candidate.append(member)
                                }
                            }
                        }
                    }
                }
                var target: Int32 = -1
                if !candidate.isEmpty {
                    if high - low > 1 { candidate.sort() }
                    guard let found = numberCandidate() else { return false }
                    target = found
                }
                transitions.append(target)
                previous = (low, high, target)
            }
        }
        return true
    }
}
