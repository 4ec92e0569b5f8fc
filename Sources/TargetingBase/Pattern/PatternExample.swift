extension MatchPattern {
    /// The shortest value the pattern accepts (the one whose scalars read best among those of
    /// that length), or nil when it accepts none.
    ///
    /// Under `ignoring case` the value is written with scalars that lowercase to themselves, so
    /// the value as given, not only its lowercase, matches.
    package func shortestMatch() -> String? {
        automaton.shortestMatch(caseStable: ignoringCase)
    }
}

extension PatternAutomaton {
    /// The shortest text the automaton accepts, found by a breadth-first search over the DFA
    /// (over the NFA when the DFA is over budget), or nil when the language is empty.
    ///
    /// Each span is read as one example scalar; the surrogate span, which holds no scalar, is
    /// never read. With `caseStable`, a span is read only as a scalar that `CaseFolding`
    /// lowercases to itself (and not at all when the first few it holds all change).
    package func shortestMatch(caseStable: Bool = false) -> String? {
        let spans = spanExamples(caseStable: caseStable)
        let path: [Int]?
        if let dfa { path = dfa.shortestPath(spans: spans) } else { path = nfa.shortestPath(spans: spans) }
        guard let path else { return nil }
        var text = String.UnicodeScalarView()
        for span in path {
            guard let scalar = spans.scalars[span] else { return nil }
            text.append(scalar)
        }
        return String(text)
    }

    /// One scalar per span (nil where the span cannot be read), and the spans that can be read,
    /// most readable first.
    private func spanExamples(caseStable: Bool) -> (scalars: [Unicode.Scalar?], order: [Int]) {
        var scalars: [Unicode.Scalar?] = []
        scalars.reserveCapacity(alphabet.count)
        for span in 0..<alphabet.count {
            var scalar = alphabet.example(of: span)
            if caseStable, let found = scalar, !PatternAutomaton.isCaseStable(found) {
                scalar = nil
                let values = alphabet.values(of: span)
                for value in values.lowerBound...min(values.upperBound, values.lowerBound + 0x400) {
                    if let candidate = Unicode.Scalar(value), PatternAutomaton.isCaseStable(candidate) {
                        scalar = candidate
                        break
                    }
                }
            }
            scalars.append(scalar)
        }
        let order = scalars.indices.filter { scalars[$0] != nil }.sorted { a, b in
            let (x, y) = (PatternAutomaton.readability(scalars[a]!), PatternAutomaton.readability(scalars[b]!))
            return x != y ? x < y : a < b
        }
        return (scalars, order)
    }

    /// Whether `CaseFolding` lowercases the scalar to itself.
    private static func isCaseStable(_ scalar: Unicode.Scalar) -> Bool {
        let text = String(scalar)
        return CaseFolding.lowercase(text) == text
    }

    /// How well a scalar reads in an example: lowercase letters first, then capitals, digits,
    /// other printable ASCII, other scalars, and white space and controls last.
    private static func readability(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x61...0x7A: 0
        case 0x41...0x5A: 1
        case 0x30...0x39: 2
        case 0x21...0x7E: 3
        default: scalar.properties.isWhitespace || scalar.properties.generalCategory == .control ? 5 : 4
        }
    }
}

extension PatternAutomaton.DFA {
    /// The spans of a shortest path from the start to an accepting state, reading only the
    /// spans in `spans.order` (tried in that order); nil when no accepting state is reachable.
    func shortestPath(spans: (scalars: [Unicode.Scalar?], order: [Int])) -> [Int]? {
        guard stateCount > 0 else { return nil }
        var previous = [(state: Int, span: Int)?](repeating: nil, count: stateCount)
        var visited = [Bool](repeating: false, count: stateCount)
        visited[0] = true
        var queue = [0]
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            if accepting[state] {
                var path: [Int] = []
                var at = state
                while let step = previous[at] {
                    path.append(step.span)
                    at = step.state
                }
                return path.reversed()
            }
            for span in spans.order {
                let target = next(state, span)
                guard target >= 0, !visited[target] else { continue }
                visited[target] = true
                previous[target] = (state, span)
                queue.append(target)
            }
        }
        return nil
    }
}

extension PatternAutomaton.NFA {
    /// The spans of a shortest path from the start to the accepting state: a breadth-first
    /// search where moves without reading cost nothing (0-1 BFS); nil when none exists.
    func shortestPath(spans: (scalars: [Unicode.Scalar?], order: [Int])) -> [Int]? {
        var rank = [Int](repeating: Int.max, count: spanCount)
        for (position, span) in spans.order.enumerated() { rank[span] = position }
        var distance = [Int](repeating: Int.max, count: stateCount)
        var previous = [(state: Int32, span: Int)?](repeating: nil, count: stateCount)
        var deque: [Int32] = [start]
        var head = 0
        distance[Int(start)] = 0
        // A double-ended queue: zero-cost moves go to the front (kept in `front`, reversed).
        var front: [Int32] = []
        while true {
            let state: Int32
            if let first = front.popLast() {
                state = first
            } else if head < deque.count {
                state = deque[head]
                head += 1
            } else {
                break
            }
            let here = distance[Int(state)]
            if state == accept {
                var path: [Int] = []
                var at = state
                while let step = previous[Int(at)] {
                    if step.span >= 0 { path.append(step.span) }
                    at = step.state
                }
                return path.reversed()
            }
            for target in epsilon[Int(state)] where here < distance[Int(target)] {
                distance[Int(target)] = here
                previous[Int(target)] = (state, -1)
                front.append(target)
            }
            let target = next[Int(state)]
            guard target >= 0, here + 1 <= distance[Int(target)] else { continue }
            // The most readable span the state reads.
            guard let span = reads[Int(state)].min(by: { rank[Int($0)] < rank[Int($1)] }).map(Int.init),
                  rank[span] != Int.max else { continue }
            if here + 1 == distance[Int(target)] {
                // Reached as soon another way: keep the more readable span.
                if let known = previous[Int(target)], known.span >= 0, rank[span] < rank[known.span] { previous[Int(target)] = (state, span) }
                continue
            }
            distance[Int(target)] = here + 1
            previous[Int(target)] = (state, span)
            deque.append(target)
        }
        return nil
    }
}
