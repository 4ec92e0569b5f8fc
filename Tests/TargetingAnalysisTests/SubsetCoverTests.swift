import XCTest
@testable import TargetingAnalysis

/// `table`'s description of a row's subsets: cubes whose union is exactly those subsets, and as
/// few as a greedy cover finds.
final class SubsetCoverTests: XCTestCase {
    private let values = ["sports", "music", "travel", "food"]

    /// Every subset of `values`.
    private var all: [Set<String>] {
        (0..<(1 << values.count)).map { mask in Set(values.indices.filter { mask & (1 << $0) != 0 }.map { values[$0] }) }
    }

    private func members(_ cube: SubsetCover.Cube) -> [Set<String>] {
        all.filter { subset in cube.has.allSatisfy(subset.contains) && !cube.lacks.contains(where: subset.contains) }
    }

    func testOneValueHeldOrLackingIsOneCube() {
        XCTAssertEqual(SubsetCover.cover(all.filter { $0.contains("sports") }, of: values), [.init(has: ["sports"], lacks: [])])
        XCTAssertEqual(SubsetCover.cover(all.filter { !$0.contains("sports") && !$0.contains("food") }, of: values), [.init(has: [], lacks: ["sports", "food"])])
        XCTAssertEqual(SubsetCover.cover(all, of: values), [.init(has: [], lacks: [])])
        XCTAssertEqual(SubsetCover.cover([[]], of: values), [.init(has: [], lacks: values)])
    }

    func testTheCubesCoverExactlyTheSubsetsForEveryRowOfAGeneratedTable() throws {
        var state: UInt64 = 3
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        for _ in 0..<300 {
            let chosen = all.filter { _ in next() % 3 == 0 }
            guard !chosen.isEmpty else { continue }
            let cubes = try XCTUnwrap(SubsetCover.cover(chosen, of: values))
            let covered = cubes.flatMap(members)
            XCTAssertEqual(Set(covered), Set(chosen), "\(chosen) -> \(cubes)")
            XCTAssertLessThanOrEqual(cubes.count, chosen.count, "never longer than listing the subsets")
        }
    }

    func testAValueOutsideTheDeclaredOnesOrTooManyValuesGiveNoDescription() {
        XCTAssertNil(SubsetCover.cover([["golf"]], of: values))
        XCTAssertNil(SubsetCover.cover([[]], of: (0..<11).map { "v\($0)" }))
    }
}
