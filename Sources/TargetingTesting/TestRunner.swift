import Foundation
import TargetingBase
import TargetingEngine
import TargetingProfiles
import TargetingBatch
import TargetingSyntax

/// Runs `.tests` tests against a compiled program.
///
/// Each test builds a profile from its `given` lines (in order), evaluates it at its `now`
/// (else at `defaultNow`) and checks every `expect` against that profile. Input files are read
/// through `readFile`, so an app or a test can supply them without a file system.
package struct TestRunner: Sendable {
    /// The compiled rules.
    package let program: Program
    /// The evaluation time of tests without a `now` line (Unix ms).
    package let defaultNow: Int64
    /// Reads a `given events` or `given profile` file.
    package let readFile: @Sendable (String) -> Result<[UInt8], Diagnostic>
    let interpreter: FlowEventInterpreter

    /// Creates a runner; events go through the rules' input mapping with time zone UTC.
    package init(program: Program, defaultNow: Int64,
                readFile: @escaping @Sendable (String) -> Result<[UInt8], Diagnostic> = { SourceLoader.read($0) }) {
        self.program = program
        self.defaultNow = defaultNow
        self.readFile = readFile
        self.interpreter = FlowEventInterpreter(mapping: InputMapping(program.ruleSet), timeZone: TimeZone(identifier: "UTC")!)
    }

    /// Runs every test of `files` whose name contains `filter` (all when nil), on up to `jobs`
    /// threads; the results are in file order whatever the number of jobs.
    package func run(_ files: [TestFile], filter: String? = nil, jobs: Int = 1) -> [TestResult] {
        var selected: [(TestDeclaration, String)] = []
        for file in files {
            for test in file.tests where filter.map({ test.name.contains($0) }) ?? true {
                selected.append((test, file.source.path))
            }
        }
        let runner = self
        return ParallelBatches.map(selected, jobs: jobs) { runner.run($0.0, in: $0.1) }
    }

    /// Runs one test written in the tests file at `path`.
    package func run(_ test: TestDeclaration, in path: String) -> TestResult {
        let now = test.now ?? defaultNow
        var builder = TestProfileBuilder(interpreter: interpreter, readFile: readFile, testsFile: path, now: now)
        var result = TestResult(name: test.name, range: test.range, status: .passed, notes: [], trace: nil)
        for given in test.givens {
            do {
                try builder.apply(given)
            } catch let error as TestError {
                result.status = .error(error)
                result.notes = builder.notes
                return result
            } catch {
                result.status = .error(TestError(message: "\(error)", range: given.range))
                return result
            }
        }
        result.notes = builder.notes
        let profile = builder.profile
        var evaluator = Evaluator(program: program, profile: profile, now: now)
        var failures: [TestFailure] = []
        var decidedRows: [PlacementRowKey] = []
        for expectation in test.expectations {
            switch check(expectation, profile: profile, evaluator: &evaluator) {
            case .failure(let error):
                result.status = .error(error)
                return result
            case .success(let (failure, row)):
                if let failure { failures.append(failure) }
                if let row { decidedRows.append(row) }
            }
        }
        let segmentValues = program.segments.indices.map { evaluator.segmentMatches($0) }
        let prerequisiteValues = program.prerequisites.indices.map { evaluator.prerequisiteHolds($0) }
        result.trace = TestTrace(decidedRows: decidedRows, segmentValues: segmentValues, prerequisiteValues: prerequisiteValues)
        if !failures.isEmpty { result.status = .failed(failures) }
        return result
    }

    /// Checks one expectation: its failure (nil when it holds) and the row that decided a placement.
    func check(_ expectation: Expectation, profile: Profile, evaluator: inout Evaluator) -> Result<(TestFailure?, PlacementRowKey?), TestError> {
        switch expectation {
        case .placement(let name, let expected, let range):
            guard let index = program.placementIndex(named: name.text) else {
                return .failure(TestError(message: "unknown placement `\(name.text)`", range: name.range))
            }
            let decision: Decision
            switch evaluator.resolve(placement: index, profileID: profile.id) {
            case .failure(let error): return .failure(TestError(message: error.message, range: range))
            case .success(let value): decision = value
            }
            let row = decision.row.map { rowIndex in
                // A split or experiment row also records which variant the draw showed.
                let variant = program.placements[index].rows[rowIndex].split?.steps.firstIndex { step in
                    if let name = step.variant { return name == decision.variant }
                    return TestRunner.matches(PlacementExpectation(outcome: .destination(step.destination)), decision)
                }
                return PlacementRowKey(placement: index, row: rowIndex, variant: variant, sticky: decision.isSticky)
            }
            guard !TestRunner.matches(expected, decision) else { return .success((nil, row)) }
            let actual = (decision.outcome ?? .nothing).description
            var failure = TestFailure(range: range, expected: expectation.description, actual: actual,
                                      audience: decision.audience, split: decision.split, reason: nil,
                                      heldOutBy: decision.heldOut ? decision.heldOutBy : nil)
            if let experiment = decision.experiment, let variant = decision.variant { failure.experimentVariant = "\(experiment): \(variant)" }
            return .success((failure, row))
        case .heldOut(let negated, _, let range):
            let heldOut = evaluator.isHeldOut(profileID: profile.id)
            guard heldOut == negated else { return .success((nil, nil)) }
            let name = program.holdout?.name ?? "the holdout"
            let failure = TestFailure(range: range, expected: expectation.description, actual: (heldOut ? "held out by " : "not held out by ") + name,
                                      audience: nil, split: nil, reason: nil)
            return .success((failure, nil))
        case .membership(let name, let negated, let range):
            let condition: Condition
            let holds: Bool
            if let index = program.audiences.firstIndex(where: { $0.name == name.text }) {
                holds = evaluator.audienceMatches(index)
                condition = program.audiences[index].condition
            } else if let index = program.segments.firstIndex(where: { $0.name == name.text }) {
                holds = evaluator.segmentMatches(index)
                condition = program.segments[index].condition
            } else {
                return .failure(TestError(message: "unknown audience or segment `\(name.text)`", range: name.range))
            }
            guard holds == negated else { return .success((nil, nil)) }
            let reason = evaluator.reasons(condition, expected: !holds, segment: name.text, profile: profile).first.map {
                "segment `\($0.segment)`: \($0.attribute) is \($0.actual), so `\($0.comparison)` is \($0.holds ? "true" : "false")"
            }
            let failure = TestFailure(range: range, expected: expectation.description, actual: (holds ? "" : "not ") + name.text,
                                      audience: nil, split: nil, reason: reason)
            return .success((failure, nil))
        }
    }

    /// Whether a decision is what `expect … -> expected` asks for: `nothing` also covers no
    /// match, `no match` only that, and `from` names the deciding audience or experiment variant.
    static func matches(_ expected: PlacementExpectation, _ decision: Decision) -> Bool {
        if let audience = expected.audience, decision.audience != audience.text { return false }
        if let variant = expected.variant,
           decision.experiment != variant.experiment.text || decision.variant != variant.variant.text { return false }
        switch expected.outcome {
        case .noMatch: return decision.audience == nil
        case .destination(let destination):
            let got = decision.outcome ?? .nothing
            switch destination {
            case .flow(let id, _): return got == .flow(id)
            case .paywall(let id, _): return got == .paywall(id)
            case .nothing: return got == .nothing
            case .split, .experiment: return false  // an expectation names a flow, a paywall or nothing
            }
        }
    }
}
