/// Which nodes of a graph hold for exactly the same profiles by their shape alone.
extension ConditionGraph {
    /// A node's content with its children replaced by their canonical ids.
    private enum Shape: Hashable {
        case atom(Int)
        case and([Int])
        case or([Int])
        case not(Int)
        case constant(Bool)
    }

    /// Per node, an id that two nodes share when they are the same condition over profile
    /// fields up to the order and repeats of the children of an `and` or an `or`: the same
    /// comparisons (one atom each, across programs too) combined the same way, whatever the
    /// segments in between are named or where they are declared. Equal ids mean equal
    /// conditions; different ids say nothing (the two may still be equivalent).
    ///
    /// Children come before their parents, so one pass in node order settles every node.
    func canonicalIDs() -> [Int] {
        var ids = [Int](repeating: 0, count: nodes.count)
        var known: [Shape: Int] = [:]
        known.reserveCapacity(nodes.count)
        for (node, content) in nodes.enumerated() {
            let shape: Shape
            switch content {
            case .atom(let atom): shape = .atom(atom)
            case .constant(let flag): shape = .constant(flag)
            case .not(let child): shape = .not(ids[child])
            case .and(let children), .or(let children):
                let distinct = Array(Set(children.map { ids[$0] })).sorted()
                // `x and x` and `x or x` are `x`.
                if distinct.count == 1 {
                    ids[node] = distinct[0]
                    continue
                }
                if case .and = content { shape = .and(distinct) } else { shape = .or(distinct) }
            }
            let fresh = known.count
            ids[node] = { (entry: inout Int) in entry }(&known[shape, default: fresh])
        }
        return ids
    }
}
