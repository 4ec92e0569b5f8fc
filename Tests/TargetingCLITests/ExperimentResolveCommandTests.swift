import Foundation
import XCTest
import TargetingBase
import TargetingTestSupport

/// `targeting resolve` on experiments and the holdout rules: the JSON keys `experiment`, `variant` and `held_out`
/// (only when the rules declare an experiment or a holdout), the text forms, `--explain` and
/// `--summary`.
final class ExperimentResolveCommandTests: TemporaryDirectoryTestCase {
    private func rulesPath(_ text: String = ExperimentFixture.rules) -> String { directory.write("rules/main.rules", text) }

    private func corpus(_ people: [ExperimentFixture.Person]) -> String {
        directory.write("profiles.jsonl", people.map(\.json).joined(separator: "\n") + "\n")
    }

    private func resolve(_ arguments: [String], rules: String? = nil, stdin: String = "") -> CLIResult {
        CLIHarness.run(["resolve", "--rules", rules ?? rulesPath(), "--now", ExperimentFixture.now] + arguments, stdin: stdin)
    }

    // MARK: - JSON

    func testJSONHasNineKeysWithTheValuesOfTheDraws() {
        let people = ExperimentFixture.people(60)
        let result = resolve(["--all", "--profiles", corpus(people), "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        var expected: [String] = []
        for person in people {
            for placement in ["onboarding_followup", "main_paywall", "colors"] {
                expected.append(ExperimentFixture.expectedJSON(person, placement))
            }
        }
        XCTAssertEqual(result.outLines, expected)
        for line in result.outLines {
            XCTAssertEqual(CLIHarness.keys(line), ["profile_id", "placement", "audience", "kind", "id", "split", "experiment", "variant", "held_out"], line)
        }
        // The corpus reaches every case.
        XCTAssertTrue(people.contains(where: \.heldOut))
        XCTAssertTrue(people.contains { !$0.heldOut && $0.pricingVariant == "control" })
        XCTAssertTrue(people.contains { !$0.heldOut && $0.pricingVariant == "discount" })
    }

    func testJSONHasSixKeysWithoutExperimentsOrAHoldout() {
        let plain = """
        segment recent = profile.installed_at >= now - 30d
        audience new_users = recent
        placement p {
          new_users -> split "s" by profile.customer_user_id { 50% -> flow "a" 50% -> flow "b" }
          everyone -> flow "f"
        }
        """
        let result = resolve(["p", "--profiles", corpus(ExperimentFixture.people(6)), "--format", "json"], rules: rulesPath(plain))
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines.count, 6)
        for line in result.outLines {
            XCTAssertEqual(CLIHarness.keys(line), ["profile_id", "placement", "audience", "kind", "id", "split"], line)
        }
    }

    func testAHoldoutAloneOrAnExperimentAloneAddsTheThreeKeys() {
        let head = "segment recent = profile.installed_at >= now - 30d\naudience new_users = recent\n"
        let holdoutOnly = head + "placement p { new_users -> flow \"a\" everyone -> flow \"f\" }\nholdout h 5%\n"
        let experimentOnly = head + "experiment e { 50% x 50% y }\nplacement p { new_users -> e { x -> flow \"a\" y -> flow \"b\" } everyone -> flow \"f\" }\n"
        for rules in [holdoutOnly, experimentOnly] {
            let result = resolve(["p", "--profile", "-", "--format", "json"], rules: rulesPath(rules), stdin: #"{"id":"u1"}"#)
            XCTAssertEqual(result.status, 0, result.err)
            XCTAssertEqual(CLIHarness.keys(result.out), ["profile_id", "placement", "audience", "kind", "id", "split", "experiment", "variant", "held_out"], rules)
            XCTAssertEqual(CLIHarness.member(result.out, "held_out"), .bool(false))
            XCTAssertEqual(CLIHarness.member(result.out, "experiment"), .null)
        }
    }

    // MARK: - Text

    func testTextNamesTheExperimentVariantAndTheHoldout() throws {
        let people = ExperimentFixture.people(30)
        let held = try XCTUnwrap(people.first(where: \.heldOut))
        let kept = try XCTUnwrap(people.first { !$0.heldOut && $0.customer == nil })
        let result = resolve(["--all", "--profiles", corpus([held, kept])])
        XCTAssertEqual(result.status, 0, result.err)
        let variant = kept.pricingVariant
        let onboarding = variant == "control" ? "flow_onb_a" : "flow_onb_discount"
        let paywall = variant == "control" ? "pw_standard" : "pw_discount"
        XCTAssertEqual(result.outLines, [
            "\(held.id) onboarding_followup: flow \"flow_default\" (audience `everyone`) (held out by q4_holdout)",
            "\(held.id) main_paywall: paywall \"\(held.pricingVariant == "control" ? "pw_standard" : "pw_discount")\" (audience `new_users`) (experiment pricing_q4: \(held.pricingVariant))",
            "\(held.id) colors: no match (no audience matched) (held out by q4_holdout)",
            "\(kept.id) onboarding_followup: flow \"\(onboarding)\" (audience `new_users`) (experiment pricing_q4: \(variant))",
            "\(kept.id) main_paywall: paywall \"\(paywall)\" (audience `new_users`) (experiment pricing_q4: \(variant))",
            "\(kept.id) colors: no match (no audience matched)",
        ])
    }

    // MARK: - --explain

    func testExplainShowsBucketKeyValueDoesNotEnterAndTheHoldoutLine() throws {
        let people = ExperimentFixture.people(30)
        let kept = try XCTUnwrap(people.first { !$0.heldOut && $0.customer != nil })
        let customer = try XCTUnwrap(kept.customer)
        let colorBucket = ReferenceDraw.bucket("by_customer", customer)
        let color = ReferenceDraw.variant("by_customer", customer, ExperimentFixture.colors)
        let holdoutBucket = ReferenceDraw.bucket("q4_holdout", kept.id)
        let result = resolve(["colors", "--profile", "-", "--explain"], stdin: kept.json)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines, [
            "\(kept.id) colors: flow \"\(color)\" (audience `new_users`) (experiment by_customer: \(color))",
            "  1. new_users -> by_customer: decided (bucket \(colorBucket) on profile.customer_user_id \"\(customer)\" -> \(color))",
            "  holdout q4_holdout 20%: bucket \(holdoutBucket), not held out",
            "  decision: flow \"\(color)\" (audience `new_users`) (experiment by_customer: \(color))",
        ])

        let anonymous = try XCTUnwrap(people.first { !$0.heldOut && $0.customer == nil })
        let missing = resolve(["colors", "--profile", "-", "--explain"], stdin: anonymous.json)
        XCTAssertEqual(missing.status, 0, missing.err)
        XCTAssertEqual(missing.outLines, [
            "\(anonymous.id) colors: no match (no audience matched)",
            "  1. new_users -> by_customer: matched (does not enter: no customer_user_id)",
            "  holdout q4_holdout 20%: bucket \(ReferenceDraw.bucket("q4_holdout", anonymous.id)), not held out",
            "  decision: no match (no audience matched)",
        ])

        let pricingBucket = ReferenceDraw.bucket("pricing_q4", anonymous.id)
        let onboarding = resolve(["onboarding_followup", "--profile", "-", "--explain"], stdin: anonymous.json)
        let variant = anonymous.pricingVariant
        XCTAssertEqual(onboarding.outLines, [
            "\(anonymous.id) onboarding_followup: flow \"\(variant == "control" ? "flow_onb_a" : "flow_onb_discount")\" (audience `new_users`) (experiment pricing_q4: \(variant))",
            "  1. new_users -> pricing_q4: decided (bucket \(pricingBucket) -> \(variant))",
            "  2. everyone -> flow \"flow_default\": matched",
            "  holdout q4_holdout 20%: bucket \(ReferenceDraw.bucket("q4_holdout", anonymous.id)), not held out",
            "  decision: flow \"\(variant == "control" ? "flow_onb_a" : "flow_onb_discount")\" (audience `new_users`) (experiment pricing_q4: \(variant))",
        ])
    }

    func testExplainOfAHeldOutProfile() throws {
        let held = try XCTUnwrap(ExperimentFixture.people(30).first(where: \.heldOut))
        let bucket = ReferenceDraw.bucket("q4_holdout", held.id)
        let result = resolve(["onboarding_followup", "--profile", "-", "--explain"], stdin: held.json)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines, [
            "\(held.id) onboarding_followup: flow \"flow_default\" (audience `everyone`) (held out by q4_holdout)",
            "  1. new_users -> pricing_q4: matched (skipped: held out by q4_holdout)",
            "  2. everyone -> flow \"flow_default\": decided",
            "  holdout q4_holdout 20%: bucket \(bucket) < 20, held out",
            "  decision: flow \"flow_default\" (audience `everyone`) (held out by q4_holdout)",
        ])
        // The `except` placement has no holdout line and decides by the experiment.
        let paywall = resolve(["main_paywall", "--profile", "-", "--explain"], stdin: held.json)
        XCTAssertFalse(paywall.out.contains("holdout"), paywall.out)
        XCTAssertTrue(paywall.outLines.first?.hasSuffix("(experiment pricing_q4: \(held.pricingVariant))") ?? false, paywall.out)
    }

    // MARK: - --summary

    /// `  ENTRY: COUNT (P%)` lines of one placement's block in a text summary.
    private func entries(_ lines: [String], placement: String) -> (total: Int, entries: [(String, Int)]) {
        guard let start = lines.firstIndex(where: { $0.hasPrefix(placement + ": ") }) else { return (-1, []) }
        let total = Int(lines[start].dropFirst(placement.count + 2).split(separator: " ")[0]) ?? -1
        var found: [(String, Int)] = []
        for line in lines[(start + 1)...] {
            guard line.hasPrefix("  ") else { break }
            let body = line.dropFirst(2)
            guard let colon = body.range(of: ": ", options: .backwards) else { continue }
            let count = Int(body[colon.upperBound...].split(separator: " ")[0]) ?? -1
            found.append((String(body[..<colon.lowerBound]), count))
        }
        return (total, found)
    }

    func testSummaryListsVariantsAndHeldOutEntriesSummingToTheTotal() {
        let people = ExperimentFixture.people(300)
        let result = resolve(["--all", "--profiles", corpus(people), "--summary"])
        XCTAssertEqual(result.status, 0, result.err)
        let lines = result.outLines

        let kept = people.filter { !$0.heldOut }
        let control = kept.filter { $0.pricingVariant == "control" }.count
        let onboarding = entries(lines, placement: "onboarding_followup")
        XCTAssertEqual(onboarding.total, 300)
        XCTAssertEqual(onboarding.entries.map(\.1).reduce(0, +), 300)
        XCTAssertEqual(onboarding.entries.map(\.0), [
            "flow \"flow_onb_a\" (audience `new_users`) (experiment pricing_q4: control)",
            "flow \"flow_onb_discount\" (audience `new_users`) (experiment pricing_q4: discount)",
            "flow \"flow_default\" (audience `everyone`)",
            "flow \"flow_default\" (audience `everyone`) (held out by q4_holdout)",
        ])
        XCTAssertEqual(onboarding.entries.map(\.1), [control, kept.count - control, 0, people.count - kept.count])

        let paywall = entries(lines, placement: "main_paywall")
        let allControl = people.filter { $0.pricingVariant == "control" }.count
        XCTAssertEqual(paywall.total, 300)
        XCTAssertEqual(paywall.entries.map(\.1), [allControl, 300 - allControl, 0])
        XCTAssertFalse(paywall.entries.contains { $0.0.contains("held out") }, "main_paywall is excepted")

        let colors = entries(lines, placement: "colors")
        XCTAssertEqual(colors.total, 300)
        XCTAssertEqual(colors.entries.map(\.1).reduce(0, +), 300)
        let red = kept.filter { $0.customer.map { ReferenceDraw.variant("by_customer", $0, ExperimentFixture.colors) == "red" } ?? false }.count
        let withCustomer = kept.filter { $0.customer != nil }.count
        // Variants in draw order: 50% and 50%, so by name.
        XCTAssertEqual(colors.entries.map(\.0), [
            "flow \"blue\" (audience `new_users`) (experiment by_customer: blue)",
            "flow \"red\" (audience `new_users`) (experiment by_customer: red)",
            "no match (no audience matched)",
            "no match (no audience matched) (held out by q4_holdout)",
        ])
        XCTAssertEqual(colors.entries.map(\.1), [withCustomer - red, red, kept.count - withCustomer, people.count - kept.count])
    }

    func testJSONSummaryCarriesTheVariantAndHeldOut() {
        let people = ExperimentFixture.people(100)
        let result = resolve(["onboarding_followup", "--profiles", corpus(people), "--summary", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines.count, 4)
        var total = 0
        for line in result.outLines {
            XCTAssertEqual(CLIHarness.keys(line), ["placement", "audience", "kind", "id", "split", "experiment", "variant", "held_out", "profiles", "share"], line)
            if case .number(let count)? = CLIHarness.member(line, "profiles") { total += Int(count) }
        }
        XCTAssertEqual(total, 100)
        let held = people.filter(\.heldOut).count
        XCTAssertEqual(CLIHarness.member(result.outLines[3], "held_out"), .bool(true))
        XCTAssertEqual(CLIHarness.member(result.outLines[3], "profiles"), .number(Double(held)))
        XCTAssertEqual(CLIHarness.member(result.outLines[0], "variant"), .string("control"))
        XCTAssertEqual(CLIHarness.member(result.outLines[1], "variant"), .string("discount"))
    }
}
