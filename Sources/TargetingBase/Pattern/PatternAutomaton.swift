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
            let spanCount = nfa.spanCount
            self.spanCount = spanCount
            // Only reading states and the accepting state tell subsets apart, so a subset is
            // kept as the sorted list of those it holds.
            let important = (0..<nfa.stateCount).map { !nfa.reads[$0].isEmpty || Int32($0) == nfa.accept }
            var seen = [Bool](repeating: false, count: nfa.stateCount)
            var stack: [Int32] = []
            // The important states each state reaches without reading, kept once computed
            // (unless large, so a long chain of optional parts stays linear in memory).
            var closures = [[Int32]?](repeating: nil, count: nfa.stateCount)
            func closure(_ state: Int32) -> [Int32] {
                if let known = closures[Int(state)] { return known }
                var reached: [Int32] = []
                nfa.close(state, into: &reached, seen: &seen, stack: &stack)
                for member in reached { seen[Int(member)] = false }
                let result = reached.filter { important[Int($0)] }.sorted()
                if result.count <= 64 { closures[Int(state)] = result }
                return result
            }
            var stamp = [UInt32](repeating: 0, count: nfa.stateCount)
            var generation: UInt32 = 0
            func union(_ targets: [Int32]) -> [Int32] {
                if targets.count == 1 { return closure(targets[0]) }
                generation &+= 1
                var result: [Int32] = []
                for target in targets {
                    for member in closure(target) where stamp[Int(member)] != generation {
                        stamp[Int(member)] = generation
                        result.append(member)
                    }
                }
                return result.sorted()
            }
            let start = closure(nfa.start)
            var index: [[Int32]: Int32] = [start: 0]
            var sets: [[Int32]] = [start]
            var transitions: [Int32] = []
            var accepting: [Bool] = []
            var cursor = 0
            var targets = [[Int32]](repeating: [], count: spanCount)
            while cursor < sets.count {
                let set = sets[cursor]
                cursor += 1
                accepting.append(set.contains(nfa.accept))
                for span in 0..<spanCount { targets[span].removeAll(keepingCapacity: true) }
                for state in set {
                    let next = nfa.next[Int(state)]
                    for span in nfa.reads[Int(state)] { targets[Int(span)].append(next) }
                }
                var previous: (targets: [Int32], state: Int32)?
                for span in 0..<spanCount {
                    let here = targets[span]
                    if here.isEmpty {
                        transitions.append(-1)
                        continue
                    }
                    // Spans read by the same states lead to the same subset.
                    if let previous, previous.targets == here {
                        transitions.append(previous.state)
                        continue
                    }
                    let key = union(here)
                    let target: Int32
                    if key.isEmpty {
                        target = -1
                    } else if let known = index[key] {
                        target = known
                    } else {
                        guard sets.count < budget else { return nil }
                        target = Int32(sets.count)
                        index[key] = target
                        sets.append(key)
                    }
                    transitions.append(target)
                    previous = (here, target)
                }
            }
            self.transitions = transitions
            self.accepting = accepting
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
