import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingEngine
@testable import TargetingProfiles

/// the promise on 100,000 random profiles: a profile gets the same variant in every
/// placement that decides through one experiment (whatever the audience or destinations), and the
/// tree evaluator and the flat code make the same decision everywhere.
final class ExperimentPropertyTests: XCTestCase {
    /// Two experiments (one keyed by customer_user_id, one by id) each used by three placements
    /// with different audiences and destinations; a split by key and a holdout by key too.
    static let rules = """
    attribute plan: string one of ["free", "pro"]
    attribute account: string
    segment recent = profile.installed_at >= now - 30d
    segment pro = plan == "pro"
    segment us = profile.country == "US"
    segment android = profile.platform == "android"
    audience new_users = recent
    audience pros = pro
    audience americans = us
    audience droids = android
    experiment pricing by profile.customer_user_id {
      30% control
      30% discount
      40% premium
    }
    experiment layout {
      50% list
      50% grid
    }
    placement onboarding {
      new_users -> pricing { control -> flow "onb_a" discount -> flow "onb_d" premium -> flow "onb_p" }
      pros      -> layout { list -> flow "onb_list" grid -> flow "onb_grid" }
      droids    -> split "droid_onb" by account { 50% -> flow "onb_x" 50% -> flow "onb_y" }
      everyone  -> flow "onb_default"
    }
    placement main_paywall {
      pros      -> pricing { control -> paywall "pw_a" discount -> paywall "pw_d" premium -> paywall "pw_a" }
      americans -> layout { list -> paywall "pw_list" grid -> paywall "pw_grid" }
      everyone  -> paywall "pw_default"
    }
    placement settings {
      americans -> pricing { control -> flow "s_a" discount -> nothing premium -> flow "s_p" }
      new_users -> layout { list -> nothing grid -> flow "s_grid" }
    }
    holdout global 10% by profile.customer_user_id except settings
    """

    static let now: Int64 = 1_796_040_000_000  // 2026-12-01T12:00:00Z

    /// A random profile: an id most of the time, a customer_user_id (sometimes a number, so it
    /// does not enter), and the attributes the audiences look at.
    static func randomProfile(_ generator: inout ReferenceDraw.Generator) -> String {
        var fields: [String] = []
        if generator.next() % 20 != 0 { fields.append("\"id\":\"" + generator.string(12) + "\"") }
        switch generator.next() % 10 {
        case 0..<7: fields.append("\"customer_user_id\":\"c-" + generator.string(Int(generator.next() % 6) + 1) + "\"")
        case 7: fields.append("\"customer_user_id\":\(generator.next() % 1000)")
        default: break
        }
        switch generator.next() % 3 {
        case 0: fields.append("\"installed_at\":\"2026-11-20T00:00:00Z\"")
        case 1: fields.append("\"installed_at\":\"2025-01-01T00:00:00Z\"")
        default: break
        }
        if generator.next() % 2 == 0 { fields.append("\"country\":\"" + ["US", "FR"][Int(generator.next() % 2)] + "\"") }
        if generator.next() % 3 == 0 { fields.append("\"platform\":\"android\"") }
        var custom: [String] = []
        if generator.next() % 2 == 0 { custom.append("\"plan\":\"" + ["free", "pro"][Int(generator.next() % 2)] + "\"") }
        if generator.next() % 2 == 0 { custom.append("\"account\":\"a" + generator.string(3) + "\"") }
        if !custom.isEmpty { fields.append("\"custom_attributes\":{" + custom.joined(separator: ",") + "}") }
        return "{" + fields.joined(separator: ",") + "}"
    }

    func testOneVariantPerProfileAcrossPlacementsAndBothEvaluatorsAgree() throws {
        let loaded = LoadedRules(sources: [SourceFile(path: "property.rules", text: ExperimentPropertyTests.rules)])
        let program = try XCTUnwrap(loaded.program, loaded.diagnostics.map(\.message).joined(separator: "\n"))
        var generator = ReferenceDraw.Generator(seed: 0x11_2026)
        var shared = [String: Int]()     // experiment -> profiles that drew it in two or more placements
        var failures = 0
        var heldOut = 0
        for _ in 0..<100_000 {
            let json = ExperimentPropertyTests.randomProfile(&generator)
            let profile = try ProfileReader.read(Array(json.utf8)).get()
            var evaluator = Evaluator(program: program, profile: profile, now: ExperimentPropertyTests.now)
            var variants: [String: [String]] = [:]
            let all = program.decideAll(for: profile, now: ExperimentPropertyTests.now)
            XCTAssertEqual(all.count, program.placements.count)
            for index in program.placements.indices {
                let tree = evaluator.resolve(placement: index, profileID: profile.id)
                let flat = program.decide(placement: index, for: profile, now: ExperimentPropertyTests.now)
                switch (tree, flat) {
                case (.success(let expected), .success(let got)):
                    if expected != got { XCTFail("\(program.placements[index].name) for \(json): tree \(expected), flat \(got)"); return }
                    XCTAssertEqual(all[index], expected, json)
                    if let experiment = got.experiment, let variant = got.variant { variants[experiment, default: []].append(variant) }
                    if got.heldOut { heldOut += 1 }
                case (.failure(let expected), .failure(let got)):
                    XCTAssertEqual(expected, got, json)
                    // decideAll still gives the placement, with the experiment that could not draw.
                    if case .experimentNeedsProfileID(let experiment) = got {
                        XCTAssertEqual(all[index].experiment, experiment, json)
                        XCTAssertNil(all[index].outcome, json)
                    }
                    failures += 1
                default:
                    XCTFail("\(program.placements[index].name) for \(json): tree \(tree), flat \(flat)")
                    return
                }
            }
            for (experiment, drawn) in variants {
                XCTAssertEqual(Set(drawn).count, 1, "\(experiment) for \(json): \(drawn)")
                if drawn.count > 1 { shared[experiment, default: 0] += 1 }
            }
        }
        // The property was tested, not passed vacuously.
        XCTAssertGreaterThan(shared["pricing"] ?? 0, 1_000)
        XCTAssertGreaterThan(shared["layout"] ?? 0, 1_000)
        XCTAssertGreaterThan(failures, 100)
        XCTAssertGreaterThan(heldOut, 1_000)
    }
}
