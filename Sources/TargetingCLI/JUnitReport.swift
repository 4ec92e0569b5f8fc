import TargetingBase
import TargetingTesting

/// Test results as a JUnit XML document (`test --format junit`), for CI test reporters.
///
/// `<testsuites name="targeting">` holds one `<testsuite>` per `.tests` file (named by its
/// path) and one `<testcase>` per test run. A failed test has a `<failure>` whose text is what
/// the text report prints under its FAIL line; a test that could not run has an `<error>`.
/// With coverage, its figures are `<property>` elements of a `<properties>` that opens
/// `<testsuites>`. No times are given: the runner does not measure them.
enum JUnitReport {
    /// The document for the tests files `files` (paths, in order) and the results of the
    /// tests that ran, ending with a newline.
    static func document(files: [String], results: [TestResult], coverage: TestCoverage? = nil, threshold: CoverageThreshold? = nil) -> String {
        var byFile: [String: [TestResult]] = [:]
        for result in results { byFile[result.range.file, default: []].append(result) }
        // Every file given, then any file a result names that is not among them.
        var order = files
        var listed = Set(files)
        for result in results where listed.insert(result.range.file).inserted { order.append(result.range.file) }

        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += "<testsuites" + attributes([("name", "targeting")] + counts(results)) + ">\n"
        if let coverage { xml += properties(coverage, threshold: threshold) }
        for path in order {
            let suite = byFile[path] ?? []
            xml += "  <testsuite" + attributes([("name", path)] + counts(suite) + [("skipped", "0")]) + ">\n"
            for result in suite { xml += testcase(result) }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// `tests`, `failures` and `errors` of some results.
    static func counts(_ results: [TestResult]) -> [(String, String)] {
        var failures = 0, errors = 0
        for result in results {
            switch result.status {
            case .passed: break
            case .failed: failures += 1
            case .error: errors += 1
            }
        }
        return [("tests", String(results.count)), ("failures", String(failures)), ("errors", String(errors))]
    }

    /// One `<testcase>`, with its `<failure>` or `<error>`.
    static func testcase(_ result: TestResult) -> String {
        let head = "    <testcase" + attributes([
            ("name", result.name), ("classname", result.range.file),
            ("file", result.range.file), ("line", String(result.range.start.line)),
        ])
        let detail = TestReportPrinter.detail(result)
        switch result.status {
        case .passed:
            return head + "/>\n"
        case .failed(let failures):
            let more = failures.count > 1 ? " (and \(failures.count - 1) more)" : ""
            return head + ">\n      <failure" + attributes([("message", failures[0].message + more), ("type", "expectation")]) + ">"
                + escape(detail, attribute: false) + "</failure>\n    </testcase>\n"
        case .error(let error):
            return head + ">\n      <error" + attributes([("message", error.message), ("type", "error")]) + ">"
                + escape(detail, attribute: false) + "</error>\n    </testcase>\n"
        }
    }

    /// The coverage figures as properties: `coverage`, `coverage.rows`, `coverage.segments`
    /// and `coverage.variants` (each `N of M (P%)`), and with a threshold `min-coverage` and
    /// `below-min-coverage` (the figures below it, comma-separated, or empty).
    static func properties(_ coverage: TestCoverage, threshold: CoverageThreshold?) -> String {
        func share(_ covered: Int, _ total: Int, _ permille: Int) -> String {
            "\(covered) of \(total) (\(CoverageFigure.percentText(permille)))"
        }
        var pairs = [("coverage", share(coverage.coveredCount, coverage.items.count, coverage.permille))]
        for figure in coverage.figures {
            pairs.append(("coverage.\(figure.name)", share(figure.covered, figure.total, figure.permille)))
        }
        if let threshold {
            pairs.append(("min-coverage", threshold.text))
            pairs.append(("below-min-coverage", threshold.failing(coverage).map(\.name).joined(separator: ",")))
        }
        var xml = "  <properties>\n"
        for (name, value) in pairs { xml += "    <property" + attributes([("name", name), ("value", value)]) + "/>\n" }
        return xml + "  </properties>\n"
    }

    /// ` name="value"` for each pair, values escaped.
    static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { " \($0.0)=\"\(escape($0.1, attribute: true))\"" }.joined()
    }

    /// `text` escaped for XML 1.0: the five special characters as entities; characters XML 1.0
    /// does not allow (controls other than tab, line feed and carriage return, U+FFFE, U+FFFF)
    /// replaced by U+FFFD; a carriage return, and in an attribute also a tab and a line feed,
    /// as character references so that parsers keep them.
    static func escape(_ text: String, attribute: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\r": out += "&#13;"
            case "\t", "\n":
                if attribute { out += "&#\(scalar.value);" } else { out.unicodeScalars.append(scalar) }
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out.unicodeScalars.append("\u{FFFD}")
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
