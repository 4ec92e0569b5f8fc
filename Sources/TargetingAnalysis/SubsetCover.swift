/// A short description of some subsets of a set attribute's declared values, for `table`: a
/// few cubes, each "holds every value of `has` and none of `lacks`" (a value in neither is
/// free), whose union is exactly those subsets. The cubes are chosen greedily, largest first,
/// from every cube the subsets contain, so a row of 128 subsets that all hold `sports` reads
/// as one cube, `has "sports"`.
package enum SubsetCover {
    /// Subsets holding every value of `has` and none of `lacks`.
    package struct Cube: Hashable, Sendable {
        package var has: [String]
        package var lacks: [String]
    }

    /// The cubes covering exactly `subsets` (each a set of `values`), or nil when `values` has
    /// more than 10 members (3^n cubes to try) or a subset holds a value not among them.
    package static func cover(_ subsets: [Set<String>], of values: [String]) -> [Cube]? {
        let count = values.count
        guard count <= 10 else { return nil }
        var masks = Set<Int>()
        for subset in subsets {
            var mask = 0
            for value in subset {
                guard let bit = values.firstIndex(of: value) else { return nil }
                mask |= 1 << bit
            }
            masks.insert(mask)
        }
        // Every cube (a digit per value: 0 free, 1 held, 2 lacking) all of whose subsets are listed.
        var cubes: [(required: Int, forbidden: Int, members: [Int])] = []
        var total = 1
        for _ in 0..<count { total *= 3 }
        for code in 0..<total {
            var required = 0, forbidden = 0, rest = code
            for bit in 0..<count {
                switch rest % 3 {
                case 0: break
                case 1: required |= 1 << bit
                case 2: forbidden |= 1 << bit
                default: preconditionFailure("a base-3 digit")
                }
                rest /= 3
            }
            let free = ((1 << count) - 1) & ~required & ~forbidden
            var members: [Int] = []
            var complete = true
            var part = free
            while true {
                let subset = required | part
                if !masks.contains(subset) { complete = false; break }
                members.append(subset)
                if part == 0 { break }
                part = (part - 1) & free
            }
            if complete { cubes.append((required, forbidden, members)) }
        }
        var uncovered = masks
        var chosen: [Cube] = []
        while !uncovered.isEmpty {
            // The cube covering most of what is left; ties to fewer conditions, then the first found.
            var best: (index: Int, gain: Int, conditions: Int)?
            for (index, cube) in cubes.enumerated() {
                let gain = cube.members.count { uncovered.contains($0) }
                guard gain > 0 else { continue }
                let conditions = (cube.required | cube.forbidden).nonzeroBitCount
                if best == nil || gain > best!.gain || (gain == best!.gain && conditions < best!.conditions) {
                    best = (index, gain, conditions)
                }
            }
            guard let best else { break }
            let cube = cubes[best.index]
            uncovered.subtract(cube.members)
            chosen.append(Cube(has: values.indices.filter { cube.required & (1 << $0) != 0 }.map { values[$0] },
                               lacks: values.indices.filter { cube.forbidden & (1 << $0) != 0 }.map { values[$0] }))
        }
        return chosen
    }
}
