/// The difference between two texts as a unified diff (`diff -u`'s form): `---`/`+++` headers,
/// then hunks `@@ -start,count +start,count @@` of changed lines with `context` unchanged lines
/// around them. Lines are compared whole; a last line without a line break differs from the
/// same line with one and is marked `\ No newline at end of file`.
///
/// The edit script is Myers' shortest one (fewest inserted and deleted lines). Past
/// `maxEdits` edits (texts that have little in common) the search stops and the rest of the
/// texts is shown as one replacement, which is still a correct diff, only a longer one.
package struct UnifiedDiff: Sendable {
    /// A line of a text, and whether it ends with a line break.
    struct Line: Hashable {
        var text: Substring
        var ended: Bool
    }

    enum Edit: Equatable {
        case same(old: Int, new: Int)
        case delete(old: Int)
        case insert(new: Int)
    }

    /// Lines of context around each change.
    package var context = 3
    /// Edits searched for before the rest is shown as one replacement.
    package var maxEdits = 4_000

    package init() {}

    /// The diff of `old` (named `oldName`) to `new` (named `newName`); empty when they are equal.
    package func diff(_ old: String, _ new: String, oldName: String, newName: String) -> String {
        let before = UnifiedDiff.lines(old), after = UnifiedDiff.lines(new)
        let edits = script(before, after)
        guard edits.contains(where: { if case .same = $0 { false } else { true } }) else { return "" }
        var text = "--- \(oldName)\n+++ \(newName)\n"
        for hunk in hunks(edits) { text += render(hunk, edits, before, after) }
        return text
    }

    static func lines(_ text: String) -> [Line] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Line(text: $0, ended: true) }
        if lines.last?.text.isEmpty == true { lines.removeLast() } else if !lines.isEmpty { lines[lines.count - 1].ended = false }
        return lines
    }

    /// The edit script from `old` to `new`, in order.
    func script(_ old: [Line], _ new: [Line]) -> [Edit] {
        // Common head and tail first: most differences are small and local.
        var head = 0
        while head < old.count, head < new.count, old[head] == new[head] { head += 1 }
        var tail = 0
        while tail < old.count - head, tail < new.count - head, old[old.count - 1 - tail] == new[new.count - 1 - tail] { tail += 1 }
        var edits = (0..<head).map { Edit.same(old: $0, new: $0) }
        edits += middle(old, new, oldRange: head..<(old.count - tail), newRange: head..<(new.count - tail))
        edits += (0..<tail).map { Edit.same(old: old.count - tail + $0, new: new.count - tail + $0) }
        return edits
    }

    /// Myers' greedy search over the lines between the common head and tail.
    private func middle(_ old: [Line], _ new: [Line], oldRange: Range<Int>, newRange: Range<Int>) -> [Edit] {
        let n = oldRange.count, m = newRange.count
        func replaceAll() -> [Edit] { oldRange.map { Edit.delete(old: $0) } + newRange.map { Edit.insert(new: $0) } }
        if n == 0 || m == 0 { return replaceAll() }
        let limit = min(n + m, maxEdits)
        let offset = limit + 1
        var furthest = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        var found = false
        search: for edits in 0...limit {
            trace.append(furthest)
            for diagonal in stride(from: -edits, through: edits, by: 2) {
                var x: Int
                if diagonal == -edits || (diagonal != edits && furthest[offset + diagonal - 1] < furthest[offset + diagonal + 1]) {
                    x = furthest[offset + diagonal + 1]
                } else {
                    x = furthest[offset + diagonal - 1] + 1
                }
                var y = x - diagonal
                while x < n, y < m, old[oldRange.lowerBound + x] == new[newRange.lowerBound + y] {
                    x += 1
                    y += 1
                }
                furthest[offset + diagonal] = x
                if x >= n, y >= m {
                    found = true
                    break search
                }
            }
        }
        guard found else { return replaceAll() }
        // Back from the end, one edit per step.
        var reversed: [Edit] = []
        var x = n, y = m
        for edits in stride(from: trace.count - 1, through: 0, by: -1) {
            let previous = trace[edits]
            let diagonal = x - y
            let previousDiagonal: Int
            if diagonal == -edits || (diagonal != edits && previous[offset + diagonal - 1] < previous[offset + diagonal + 1]) {
                previousDiagonal = diagonal + 1
            } else {
                previousDiagonal = diagonal - 1
            }
            let previousX = edits == 0 ? 0 : previous[offset + previousDiagonal]
            let previousY = edits == 0 ? 0 : previousX - previousDiagonal
            while x > previousX, y > previousY {
                x -= 1
                y -= 1
                reversed.append(.same(old: oldRange.lowerBound + x, new: newRange.lowerBound + y))
            }
            if edits > 0 {
                if x == previousX {
                    y -= 1
                    reversed.append(.insert(new: newRange.lowerBound + y))
                } else {
                    x -= 1
                    reversed.append(.delete(old: oldRange.lowerBound + x))
                }
            }
        }
        return reversed.reversed()
    }

    /// The ranges of `edits` each hunk shows: every change with `context` lines around it,
    /// changes closer than twice that joined.
    func hunks(_ edits: [Edit]) -> [Range<Int>] {
        let changed = edits.indices.filter { if case .same = edits[$0] { false } else { true } }
        var hunks: [Range<Int>] = []
        for index in changed {
            let start = max(0, index - context), end = min(edits.count, index + context + 1)
            if let last = hunks.last, start <= last.upperBound {
                hunks[hunks.count - 1] = last.lowerBound..<max(last.upperBound, end)
            } else {
                hunks.append(start..<end)
            }
        }
        return hunks
    }

    private func render(_ hunk: Range<Int>, _ edits: [Edit], _ old: [Line], _ new: [Line]) -> String {
        var oldStart: Int?, newStart: Int?
        var oldCount = 0, newCount = 0
        var body = ""
        func add(_ mark: Character, _ line: Line) {
            body += String(mark) + line.text + "\n"
            if !line.ended { body += "\\ No newline at end of file\n" }
        }
        for edit in edits[hunk] {
            switch edit {
            case .same(let o, let n):
                oldStart = oldStart ?? o
                newStart = newStart ?? n
                oldCount += 1
                newCount += 1
                add(" ", old[o])
            case .delete(let o):
                oldStart = oldStart ?? o
                oldCount += 1
                add("-", old[o])
            case .insert(let n):
                newStart = newStart ?? n
                newCount += 1
                add("+", new[n])
            }
        }
        // Where a side has no line in the hunk, the start is the line before it (0 at the top).
        let before = edits[..<hunk.lowerBound]
        let oldLine = oldStart.map { $0 + 1 } ?? before.reduce(0) { if case .insert = $1 { $0 } else { $0 + 1 } }
        let newLine = newStart.map { $0 + 1 } ?? before.reduce(0) { if case .delete = $1 { $0 } else { $0 + 1 } }
        return "@@ -\(oldLine),\(oldCount) +\(newLine),\(newCount) @@\n" + body
    }
}
