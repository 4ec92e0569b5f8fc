import XCTest
import Targeting
import TargetingBase
import TargetingEngine
import TargetingProfiles
@testable import TargetingServer

/// A small rule set served from memory, and helpers to ask the router about it.
///
/// `home` has a `nothing` row, a sticky experiment's row, a split row and `everyone`; `banner` has no
/// `everyone`, so a profile no row takes gets no match.
enum ServeFixture {
    static let rulesText = """
    attribute plan: string one of ["free", "pro", "team"]

    segment pros = plan == "pro"
    segment team = plan == "team"
    segment germans = profile.country == "DE"
    segment testers = profile.email == "qa@example.com"
    segment december = now between 2026-12-01 and 2026-12-31T23:59:59Z

    audience qa_users = testers
    audience pro_users = pros
    audience german_users = germans
    audience team_users = team
    audience winter_sale = december

    experiment pricing sticky 90d {
      50% control
      50% discount
    }

    placement home {
      qa_users     -> nothing
      pro_users    -> pricing {
        control  -> paywall "pw_control"
        discount -> paywall "pw_discount"
      }
      german_users -> split "de_test" {
        50% -> paywall "pw_de_a"
        50% -> paywall "pw_de_b"
      }
      everyone     -> paywall "pw_default"
    }

    placement banner {
      team_users  -> flow "flow_team"
      winter_sale -> flow "flow_winter"
    }

    """

    static let version = "0123456789abcdef"

    static let rules: ServedRules = {
        let loaded = LoadedRules(sources: [SourceFile(path: "serve.rules", text: rulesText)])
        precondition(!loaded.hasErrors, "\(loaded.diagnostics)")
        return ServedRules(program: loaded.program!, version: version)
    }()

    static var program: Program { rules.program }

    /// 15 November 2026, noon UTC: outside the December sale.
    static let now = Timestamp.parse("2026-11-15T12:00:00Z")!

    static func context(store: StoreSnapshot? = nil, token: String? = nil, draining: Bool = false) -> ServeContext {
        ServeContext(rules: rules, store: store, token: token.map { Array($0.utf8) }, draining: draining)
    }

    static func request(_ method: String, _ target: String, body: String = "", headers: [HTTPHeader] = []) -> HTTPRequest {
        HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8))
    }

    static func answer(_ request: HTTPRequest, context: ServeContext = context(), now: Int64 = now,
                       metrics: ServerMetrics = ServerMetrics()) -> ServeAnswer {
        ServeRouter.answer(request, context: context, now: now, metrics: metrics)
    }

    static func post(_ target: String, _ body: String, context: ServeContext = context(), now: Int64 = now) -> ServeAnswer {
        answer(request("POST", target, body: body), context: context, now: now)
    }

    static func get(_ target: String, context: ServeContext = context(), now: Int64 = now) -> ServeAnswer {
        answer(request("GET", target), context: context, now: now)
    }
}

extension ServeAnswer {
    var status: Int { response.status.code }

    var bodyText: String { String(decoding: response.body, as: UTF8.self) }

    /// The body read as JSON (`null` when it is not JSON, which the assertions then catch).
    var json: JSONValue { (try? JSONParser.parse(response.body).get()) ?? .null }

    /// `error.code` of a route's error answer.
    var errorCode: String? { json["error"]?["code"]?.stringValue }

    /// `error.message` of a route's error answer.
    var errorMessage: String? { json["error"]?["message"]?.stringValue }

    func header(_ name: String) -> String? {
        response.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The decisions counted, as `placement=destination`.
    var decisionLabels: [String] { decisions.map { "\($0.placement)=\($0.destination)" } }
}

extension XCTestCase {
    /// The profile `json` reads to; a failure at the caller when it is rejected.
    func profile(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> Profile {
        switch ProfileReader.read(Array(json.utf8)) {
        case .success(let profile): return profile
        case .failure(let error):
            XCTFail(error.message, file: file, line: line)
            return Profile()
        }
    }

    /// The body `{"rules":…,"decisions":[…]}` the engine's own decisions give for `profile`
    /// in `placements` at `now`.
    func expectedDecisionsBody(_ profile: Profile, _ placements: [String], now: Int64 = ServeFixture.now,
                               file: StaticString = #filePath, line: UInt = #line) -> String {
        let program = ServeFixture.program
        let indices = placements.map { program.placementIndex(named: $0)! }
        switch program.decide(placements: indices, for: profile, now: now) {
        case .failure(let error):
            XCTFail(error.message, file: file, line: line)
            return ""
        case .success(let decisions):
            return #"{"rules":"\#(ServeFixture.version)","decisions":["# + decisions.map(\.jsonLine).joined(separator: ",") + "]}"
        }
    }
}
