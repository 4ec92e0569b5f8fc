import TargetingBase
import TargetingSyntax

/// How placements, audiences and segments use one another: a placement uses the audiences of
/// its rows, an audience or segment the segments it names, and a segment the placements its
/// prerequisites ask about. Each edge keeps where it is written.
package struct DependencyGraph {
    /// One node: a declaration by kind and name.
    package struct Node: Hashable, Sendable {
        package enum Kind: String, Hashable, Sendable { case placement, audience, segment }
        package var kind: Kind
        package var name: String
    }

    /// One use of a name, where it is written.
    package struct Edge {
        package var target: Node
        package var range: SourceRange
    }

    /// A cycle through a placement: the nodes in order, the first repeated at the end, and
    /// where the use that closes it is written.
    package struct Cycle {
        package var nodes: [Node]
        package var closing: SourceRange
        /// The path as a message shows it: ``placement `a` -> audience `b` -> … -> placement `a` ``.
        package var path: [String] { nodes.map { "\($0.kind.rawValue) `\($0.name)`" } }
    }

    /// Every declared node, in declaration order (placements, then audiences, then segments).
    package private(set) var nodes: [Node] = []
    /// The uses of each node that name a declared node.
    package private(set) var edges: [Node: [Edge]] = [:]

    /// The graph of the declarations given by name.
    package init(placements: [PlacementDeclaration], audiences: [String: NamedExpression], segments: [String: NamedExpression]) {
        let placementNames = Set(placements.map(\.name.text))
        func uses(_ expression: Expression) -> [Edge] {
            var found: [Edge] = []
            expression.forEachLeaf { leaf in
                switch leaf {
                case .reference(let name) where segments[name.text] != nil:
                    found.append(Edge(target: Node(kind: .segment, name: name.text), range: name.range))
                case .prerequisite(let prerequisite) where placementNames.contains(prerequisite.placement.text):
                    found.append(Edge(target: Node(kind: .placement, name: prerequisite.placement.text), range: prerequisite.placement.range))
                case .reference, .prerequisite, .comparison, .or, .and, .not, .group:
                    break
                }
            }
            return found
        }
        for placement in placements {
            let node = Node(kind: .placement, name: placement.name.text)
            nodes.append(node)
            edges[node] = placement.rows.compactMap { row in
                guard case .audience(let name) = row.audience, audiences[name.text] != nil else { return nil }
                return Edge(target: Node(kind: .audience, name: name.text), range: name.range)
            }
        }
        for (name, audience) in audiences.sorted(by: { $0.key < $1.key }) {
            let node = Node(kind: .audience, name: name)
            nodes.append(node)
            edges[node] = uses(audience.expression)
        }
        for (name, segment) in segments.sorted(by: { $0.key < $1.key }) {
            let node = Node(kind: .segment, name: name)
            nodes.append(node)
            edges[node] = uses(segment.expression)
        }
    }

    /// Each cycle that runs through a placement, once, found by one depth-first walk (without
    /// recursion: chains may be long). Cycles among segments alone are left out.
    package func cycles() -> [Cycle] {
        enum Mark { case active, done }
        var marks: [Node: Mark] = [:]
        var found: [Cycle] = []
        for root in nodes where root.kind == .placement && marks[root] == nil {
            var stack: [(node: Node, next: Int)] = [(root, 0)]
            marks[root] = .active
            while let (node, next) = stack.last {
                let out = edges[node] ?? []
                if next == out.count {
                    marks[node] = .done
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let edge = out[next]
                switch marks[edge.target] {
                case .active:
                    let start = stack.firstIndex { $0.node == edge.target } ?? 0
                    let path = stack[start...].map(\.node) + [edge.target]
                    if path.contains(where: { $0.kind == .placement }) { found.append(Cycle(nodes: path, closing: edge.range)) }
                case .done:
                    break
                case nil:
                    marks[edge.target] = .active
                    stack.append((edge.target, 0))
                }
            }
        }
        return found
    }

    /// The placements `placement` asks about through its rows' audiences and their segments,
    /// directly or through other placements, each after those it depends on itself.
    package func placementsUsed(by placement: String) -> [String] {
        var order: [String] = []
        var seen: Set<Node> = []
        var stack: [(node: Node, next: Int)] = [(Node(kind: .placement, name: placement), 0)]
        seen.insert(stack[0].node)
        while let (node, next) = stack.last {
            let out = edges[node] ?? []
            if next == out.count {
                if node.kind == .placement, node.name != placement { order.append(node.name) }
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            let target = out[next].target
            if seen.insert(target).inserted { stack.append((target, 0)) }
        }
        return order
    }
}

extension DependencyGraph {
    /// The graph of a checked rule set.
    package init(_ ruleSet: CheckedRules) {
        var audiences: [String: NamedExpression] = [:], segments: [String: NamedExpression] = [:]
        for audience in ruleSet.audiences { audiences[audience.name.text] = audience }
        for segment in ruleSet.segments { segments[segment.name.text] = segment }
        self.init(placements: ruleSet.placements, audiences: audiences, segments: segments)
    }
}
