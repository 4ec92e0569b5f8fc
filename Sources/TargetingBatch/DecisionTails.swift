import TargetingBase
import TargetingEngine

/// The printed form of every decision a program can make, without its profile id: one tail
/// per choice of each placement's decision plan (`DecisionPlan.choices`). A printed
/// decision is the head for its profile id followed by the tail of its choice, the same bytes
/// as `DecisionPrinter.text` (both come from `Decision`'s `jsonTail` and `textTail`).
package struct DecisionTails: Sendable {
    package let format: OutputFormat
    /// The tails' bytes, read without a retain (the table is shared by every thread of a batch).
    private let tails: PinnedBytes
    /// The decision each tail prints, without a profile id (for `--summary`).
    package let decisions: [Decision]
    /// Per placement: the indices of its tails, in the order of its plan's choices.
    package let placementTails: [[Int]]
    /// Per placement: the index of its "no match" tail.
    private let noMatch: [Int]
    /// Per row of the flat code (all placements): the index of its first tail.
    private let rowStart: [Int]
    private let placementRowStart: [Int]
    /// Per placement the holdout covers: the tail of a held-out profile's no match (-1 elsewhere).
    private let heldOutNoMatch: [Int]
    /// Per row of the flat code: the first tail of a held-out profile's decision by it, for an
    /// `always` or `everyone` row of a placement the holdout covers (-1 elsewhere).
    private let heldOutRowStart: [Int]
    /// Per row of the flat code: the first tail of a decision by a sticky experiment's
    /// recorded assignment (one per variant), for rows of sticky experiments (-1 elsewhere).
    private let stickyRowStart: [Int]

    package init(program: Program, format: OutputFormat) {
        self.format = format
        let flat = program.flat!
        var tails: [[UInt8]] = []
        var decisions: [Decision] = []
        var placementTails: [[Int]] = []
        var noMatch: [Int] = []
        var rowStart: [Int] = []
        var placementRowStart: [Int] = []
        var heldOutNoMatch: [Int] = []
        var heldOutRowStart: [Int] = []
        var stickyRowStart: [Int] = []
        func tail(_ decision: Decision) -> [UInt8] {
            switch format {
            case .json: decision.jsonTail + [UInt8(ascii: "\n")]
            case .text: Array((decision.textTail + "\n").utf8)
            }
        }
        func add(_ decision: Decision) {
            tails.append(tail(decision))
            decisions.append(decision)
        }
        // Every choice of each placement's plan has a tail; the tables find the first tail of
        // each row's choices (one per variant) by how the choice came about.
        for (index, placement) in program.placements.enumerated() {
            let rowBase = rowStart.count
            placementRowStart.append(rowBase)
            noMatch.append(-1)
            heldOutNoMatch.append(-1)
            rowStart += Array(repeating: -1, count: placement.rows.count)
            heldOutRowStart += Array(repeating: -1, count: placement.rows.count)
            stickyRowStart += Array(repeating: -1, count: placement.rows.count)
            var entries: [Int] = []
            for choice in placement.choices {
                let tail = tails.count
                entries.append(tail)
                add(flat.decision(placement: index, choice: choice, profileID: nil))
                guard let row = choice.row else {
                    if choice.heldOut { heldOutNoMatch[index] = tail } else { noMatch[index] = tail }
                    continue
                }
                guard (choice.step ?? 0) == 0 else { continue }
                if choice.sticky {
                    stickyRowStart[rowBase + row] = tail
                } else if choice.heldOut {
                    heldOutRowStart[rowBase + row] = tail
                } else {
                    rowStart[rowBase + row] = tail
                }
            }
            placementTails.append(entries)
        }
        self.tails = PinnedBytes(tails)
        self.decisions = decisions
        self.placementTails = placementTails
        self.noMatch = noMatch
        self.rowStart = rowStart
        self.placementRowStart = placementRowStart
        self.heldOutNoMatch = heldOutNoMatch
        self.heldOutRowStart = heldOutRowStart
        self.stickyRowStart = stickyRowStart
    }

    /// The number of tails (every decision any placement can make).
    package var count: Int { tails.count }

    /// The tail of choice `choice` in placement `index`.
    package func index(placement index: Int, choice: Choice) -> Int {
        if choice.sticky, let row = choice.row { return stickyRowStart[placementRowStart[index] + row] + (choice.step ?? 0) }
        if choice.heldOut {
            guard let row = choice.row else { return heldOutNoMatch[index] }
            return heldOutRowStart[placementRowStart[index] + row] + (choice.step ?? 0)
        }
        guard let row = choice.row else { return noMatch[index] }
        return rowStart[placementRowStart[index] + row] + (choice.step ?? 0)
    }

    /// Appends the printed decision `choice` of placement `index` for `profileID`.
    package func append(placement index: Int, choice: Choice, profileID: String?, to bytes: inout [UInt8]) {
        switch format {
        case .json: Decision.appendJSONHead(profileID: profileID, to: &bytes)
        case .text: bytes.append(contentsOf: Decision.textHead(profileID: profileID).utf8)
        }
        bytes.append(contentsOf: tails[self.index(placement: index, choice: choice)])
    }
}
