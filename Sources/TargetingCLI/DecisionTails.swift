import TargetingEngine

/// The printed form of every decision a program can make, without its profile id: one tail
/// per placement for "no match" and one per row (per variant of a split row). A printed
/// decision is the head for its profile id followed by the tail of its choice, the same bytes
/// as `DecisionPrinter.text` (both come from `Decision`'s `jsonTail` and `textTail`).
struct DecisionTails {
    let format: OutputFormat
    private let tails: [[UInt8]]
    /// Per placement: the index of its "no match" tail.
    private let noMatch: [Int]
    /// Per row of the flat code (all placements): the index of its first tail.
    private let rowStart: [Int]
    private let placementRowStart: [Int]

    init(program: Program, format: OutputFormat) {
        self.format = format
        let flat = program.flat!
        var tails: [[UInt8]] = []
        var noMatch: [Int] = []
        var rowStart: [Int] = []
        var placementRowStart: [Int] = []
        func tail(_ decision: Decision) -> [UInt8] {
            switch format {
            case .json: decision.jsonTail + [UInt8(ascii: "\n")]
            case .text: Array((decision.textTail + "\n").utf8)
            }
        }
        for (index, placement) in program.placements.enumerated() {
            noMatch.append(tails.count)
            tails.append(tail(flat.decision(placement: index, choice: Choice(), profileID: nil)))
            placementRowStart.append(rowStart.count)
            for (rowIndex, row) in placement.rows.enumerated() {
                rowStart.append(tails.count)
                if let split = row.split {
                    for step in split.steps.indices {
                        tails.append(tail(flat.decision(placement: index, choice: Choice(row: rowIndex, step: step), profileID: nil)))
                    }
                } else {
                    tails.append(tail(flat.decision(placement: index, choice: Choice(row: rowIndex), profileID: nil)))
                }
            }
        }
        self.tails = tails
        self.noMatch = noMatch
        self.rowStart = rowStart
        self.placementRowStart = placementRowStart
    }

    /// Appends the printed decision `choice` of placement `index` for `profileID`.
    func append(placement index: Int, choice: Choice, profileID: String?, to bytes: inout [UInt8]) {
        switch format {
        case .json: Decision.appendJSONHead(profileID: profileID, to: &bytes)
        case .text: bytes.append(contentsOf: Decision.textHead(profileID: profileID).utf8)
        }
        let tail: Int
        if let row = choice.row {
            tail = rowStart[placementRowStart[index] + row] + (choice.step ?? 0)
        } else {
            tail = noMatch[index]
        }
        bytes.append(contentsOf: tails[tail])
    }
}
