extension TextProduct {
    /// One automaton of the product with the states that accept the same strings merged
    /// (Moore's partition refinement), so equivalent states do not multiply the tuples.
    /// States from which nothing is accepted become the dead state, -1; state 0 stays the start.
    static func minimised(steps: [Int32], accepting: [Bool], letterCount: Int) -> (steps: [Int32], accepting: [Bool]) {
        let count = accepting.count
        // The dead state takes part as state `count`, leading to itself.
        func next(_ state: Int, _ letter: Int) -> Int {
            guard state < count else { return count }
            let target = Int(steps[state * letterCount + letter])
            return target < 0 ? count : target
        }
        var classes = (0...count).map { $0 < count && accepting[$0] ? 1 : 0 }
        var classCount = Set(classes).count
        var signature = [Int](repeating: 0, count: letterCount + 1)
        while true {
            var numbering: [[Int]: Int] = [:]
            var refined = [Int](repeating: 0, count: count + 1)
            for state in 0...count {
                signature[0] = classes[state]
                for letter in 0..<letterCount { signature[letter + 1] = classes[next(state, letter)] }
                if let known = numbering[signature] {
                    refined[state] = known
                } else {
                    refined[state] = numbering.count
                    numbering[signature] = numbering.count
                }
            }
            classes = refined
            if numbering.count == classCount { break }
            classCount = numbering.count
        }
        let dead = classes[count]
        guard classes[0] != dead else { return ([Int32](repeating: -1, count: letterCount), [false]) }
        // New numbers in order of first appearance from the start, the dead class as -1.
        var number = [Int](repeating: -1, count: classCount)
        var representative: [Int] = []
        for state in 0..<count where classes[state] != dead && number[classes[state]] < 0 {
            number[classes[state]] = representative.count
            representative.append(state)
        }
        var merged: [Int32] = []
        merged.reserveCapacity(representative.count * letterCount)
        for state in representative {
            for letter in 0..<letterCount {
                let target = classes[next(state, letter)]
                merged.append(target == dead ? -1 : Int32(number[target]))
            }
        }
        return (merged, representative.map { accepting[$0] })
    }
}
