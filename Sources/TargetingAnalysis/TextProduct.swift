/// The automata of one string field's comparisons run side by side, explored breadth first
/// from the empty string: every reachable tuple of states says which comparisons accept, and
/// the path to it, spelled with the letters' examples, is a shortest string that gives it.
struct TextProduct {
    /// Per automaton: `steps[state * letterCount + letter]`, the state after the letter, or -1
    /// for the dead state (nothing accepted from there on). State 0 is the start.
    var steps: [[Int32]]
    /// Per automaton: whether each state accepts.
    var accepting: [[Bool]]
    /// The example scalar of each letter.
    var examples: [Unicode.Scalar]
    /// Per letter, whether its scalars are white space that storing a value trims; nil when the
    /// field holds any string as given (the empty one included).
    var whiteSpace: [Bool]?
    /// The longest value a field holds, in scalars; nil for no limit.
    var maxLength: Int?

    /// Most tuples explored before the product is left undecided.
    static let stateLimit = 20_000

    /// Which automata accept, and a shortest string for which exactly they do.
    struct Outcome {
        /// Per automaton, whether it accepts.
        var accepts: [Bool]
        /// A shortest storable string for which exactly these accept.
        var witness: String
    }

    /// Every combination of accepting automata that some storable string gives, each once with
    /// a shortest such string, in order of length; nil when the product has more than
    /// `stateLimit` tuples. `explored` is how many tuples were visited.
    func explore(explored: inout Int) -> [Outcome]? {
        let count = steps.count
        let letterCount = examples.count
        let width = count + 1
        // The extra component tracks storability: 0 nothing read yet, 1 ends with a scalar that
        // is not white space (storable), 2 ends with white space after a first scalar that was not.
        var tuples = [Int32](repeating: 0, count: count) + [whiteSpace == nil ? 1 : 0]
        var index: [[Int32]: Int32] = [tuples: 0]
        var parent: [Int32] = [-1]
        var via: [Int32] = [-1]
        var depth: [Int32] = [0]
        var outcomes: [Outcome] = []
        var seen: Set<[Bool]> = []
        var next = [Int32](repeating: 0, count: width)
        var cursor = 0
        while cursor * width < tuples.count {
            let base = cursor * width
            if tuples[base + count] == 1 {
                let accepts = (0..<count).map { automaton in
                    let state = tuples[base + automaton]
                    return state >= 0 && accepting[automaton][Int(state)]
                }
                if seen.insert(accepts).inserted { outcomes.append(Outcome(accepts: accepts, witness: witness(cursor, parent: parent, via: via))) }
            }
            if let maxLength, depth[cursor] >= maxLength {
                cursor += 1
                continue
            }
            for letter in 0..<letterCount {
                for automaton in 0..<count {
                    let state = tuples[base + automaton]
                    next[automaton] = state < 0 ? -1 : steps[automaton][Int(state) * letterCount + letter]
                }
                let stored = tuples[base + count]
                if let whiteSpace {
                    if whiteSpace[letter] {
                        if stored == 0 { continue }  // a leading white space is trimmed away: never stored
                        next[count] = 2
                    } else {
                        next[count] = 1
                    }
                } else {
                    next[count] = stored
                }
                if index[next] != nil { continue }
                guard parent.count < TextProduct.stateLimit else {
                    explored += parent.count
                    return nil
                }
                index[next] = Int32(parent.count)
                tuples += next
                parent.append(Int32(cursor))
                via.append(Int32(letter))
                depth.append(depth[cursor] + 1)
            }
            cursor += 1
        }
        explored += parent.count
        return outcomes
    }

    /// The string that leads to tuple `tuple`.
    private func witness(_ tuple: Int, parent: [Int32], via: [Int32]) -> String {
        var scalars: [Unicode.Scalar] = []
        var current = tuple
        while parent[current] >= 0 {
            scalars.append(examples[Int(via[current])])
            current = Int(parent[current])
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars.reversed())
        return String(view)
    }
}
