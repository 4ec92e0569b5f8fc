import TargetingBase
import TargetingTesting

/// Prints test results, coverage and the closing counts as text or JSON lines.
struct TestReportPrinter {
    let format: OutputFormat
    let io: CommandIO

    static func place(_ range: SourceRange) -> String { "\(range.file):\(range.start.line):\(range.start.column)" }

    func print(_ result: TestResult) {
        switch format {
        case .text: io.out(TestReportPrinter.text(result))
        case .json: io.out(JSONWriter.write(TestReportPrinter.json(result)) + "\n")
        }
    }

    /// Prints the coverage report; with a threshold, each figure below it is marked (text) or
    /// listed in `below` (JSON).
    func print(_ coverage: TestCoverage, threshold: CoverageThreshold? = nil) {
        let below = threshold?.failing(coverage) ?? []
        switch format {
        case .text:
            var text = "coverage:\n"
            for item in coverage.items {
                let what: String
                switch item.kind {
                case .segment: what = "segment \(item.name)"
                case .prerequisite: what = "prerequisite `\(item.name)`"
                case .row, .variant: what = item.name
                }
                text += "  \(item.range.file):\(item.range.start.line) \(what): " + (item.covered ? "yes" : "no") + (item.detail.map { " (\($0))" } ?? "") + "\n"
            }
            for figure in coverage.figures {
                text += "coverage of \(figure.name): \(figure.covered) of \(figure.total) (\(CoverageFigure.percentText(figure.permille)))"
                if let threshold, below.contains(figure) { text += ", below --min-coverage \(threshold.text)" }
                text += "\n"
            }
            io.out(text + coverage.summary + "\n")
        case .json:
            let figures = coverage.figures.map { figure in
                JSONMember(key: figure.name, value: .object([
                    JSONMember(key: "covered", value: .number(Double(figure.covered))),
                    JSONMember(key: "total", value: .number(Double(figure.total))),
                    JSONMember(key: "percent", value: .number(Double(figure.permille) / 10)),
                ]))
            }
            let items = coverage.items.filter { $0.kind != .variant }.map { item in
                JSONValue.object([
                    JSONMember(key: "kind", value: .string(item.kind.rawValue)),
                    JSONMember(key: "name", value: .string(item.name)),
                    JSONMember(key: "file", value: .string(item.range.file)),
                    JSONMember(key: "line", value: .number(Double(item.range.start.line))),
                    JSONMember(key: "covered", value: .bool(item.covered)),
                ])
            }
            let json = JSONValue.object([JSONMember(key: "coverage", value: .object([
                JSONMember(key: "covered", value: .number(Double(coverage.coveredCount))),
                JSONMember(key: "total", value: .number(Double(coverage.items.count))),
                JSONMember(key: "percent", value: .number(Double(coverage.permille) / 10)),
                JSONMember(key: "figures", value: .object(figures)),
                JSONMember(key: "min_coverage", value: threshold.map { .number(Double($0.permille) / 10) } ?? .null),
                JSONMember(key: "below", value: .array(below.map { .string($0.name) })),
                JSONMember(key: "items", value: .array(items)),
                JSONMember(key: "variants", value: .array(coverage.items.compactMap { item in
                    item.variant.map { variant in
                        var members = [JSONMember(key: "split", value: variant.split.map(JSONValue.string) ?? .null)]
                        if let experiment = variant.experiment, let name = variant.variant {
                            members += [JSONMember(key: "experiment", value: .string(experiment)), JSONMember(key: "variant", value: .string(name))]
                        } else if variant.sticky, let experiment = variant.experiment {
                            members += [JSONMember(key: "experiment", value: .string(experiment)), JSONMember(key: "sticky", value: .bool(true))]
                        }
                        return JSONValue.object(members + [
                            JSONMember(key: "kind", value: variant.kind.map(JSONValue.string) ?? .null),
                            JSONMember(key: "id", value: variant.id.map(JSONValue.string) ?? .null),
                            JSONMember(key: "covered", value: .bool(item.covered)),
                        ])
                    }
                })),
            ]))])
            io.out(JSONWriter.write(json) + "\n")
        }
    }

    func printSummary(passed: Int, failed: Int) {
        switch format {
        case .text: io.out("\(passed) passed, \(failed) failed\n")
        case .json:
            io.out(JSONWriter.write(.object([
                JSONMember(key: "passed", value: .number(Double(passed))),
                JSONMember(key: "failed", value: .number(Double(failed))),
            ])) + "\n")
        }
    }

    static func text(_ result: TestResult) -> String {
        let head = "\(result.range.file):\(result.range.start.line) \(result.name)\n"
        return (result.status.isPassed ? "PASS " : "FAIL ") + head + detail(result)
    }

    /// The lines printed under a FAIL: each failing `expect` with its position, expected and
    /// actual decision, audience and split, and why; or the error; then the notes. Empty for a
    /// passed test.
    static func detail(_ result: TestResult) -> String {
        switch result.status {
        case .passed:
            return ""
        case .failed(let failures):
            var text = ""
            for failure in failures {
                text += "  \(place(failure.range)): \(failure.message)\n"
                if let reason = failure.reason { text += "    because \(reason)\n" }
            }
            return text + notes(result)
        case .error(let error):
            return "  \(place(error.range)): error: \(error.message)\n" + notes(result)
        }
    }

    static func notes(_ result: TestResult) -> String {
        result.notes.map { "  note: \($0)\n" }.joined()
    }

    static func json(_ result: TestResult) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember(key: "name", value: .string(result.name)),
            JSONMember(key: "file", value: .string(result.range.file)),
            JSONMember(key: "line", value: .number(Double(result.range.start.line))),
        ]
        switch result.status {
        case .passed:
            members.append(JSONMember(key: "status", value: .string("passed")))
        case .failed(let failures):
            members.append(JSONMember(key: "status", value: .string("failed")))
            members.append(JSONMember(key: "failure", value: json(failures[0])))
            members.append(JSONMember(key: "failures", value: .array(failures.map(json))))
        case .error(let error):
            members.append(JSONMember(key: "status", value: .string("error")))
            members.append(JSONMember(key: "error", value: .object(position(error.range) + [
                JSONMember(key: "message", value: .string(error.message)),
            ])))
        }
        if !result.status.isPassed, !result.notes.isEmpty {
            members.append(JSONMember(key: "notes", value: .array(result.notes.map(JSONValue.string))))
        }
        return .object(members)
    }

    static func position(_ range: SourceRange) -> [JSONMember] {
        [
            JSONMember(key: "file", value: .string(range.file)),
            JSONMember(key: "line", value: .number(Double(range.start.line))),
            JSONMember(key: "column", value: .number(Double(range.start.column))),
        ]
    }

    static func json(_ failure: TestFailure) -> JSONValue {
        func string(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        var members = position(failure.range) + [
            JSONMember(key: "expected", value: .string(failure.expected)),
            JSONMember(key: "actual", value: .string(failure.actual)),
            JSONMember(key: "audience", value: string(failure.audience)),
            JSONMember(key: "split", value: string(failure.split)),
        ]
        // The experiment and holdout fields, only when an experiment or the holdout decided.
        if let experimentVariant = failure.experimentVariant { members.append(JSONMember(key: "experiment", value: .string(experimentVariant))) }
        if let heldOutBy = failure.heldOutBy { members.append(JSONMember(key: "held_out_by", value: .string(heldOutBy))) }
        members.append(JSONMember(key: "reason", value: string(failure.reason)))
        return .object(members)
    }
}
