import XCTest
import TargetingBase
import TargetingProfiles
@testable import TargetingServer

final class ProfileDecisionsRouteTests: XCTestCase {
    let pro = #"{"id":"u1","custom_attributes":{"plan":"pro"}}"#
    let team = #"{"id":"a b","custom_attributes":{"plan":"team"}}"#
    let bio = #"{"id":"u3","custom_attributes":{"bio":"\#(String(repeating: "b", count: 60))"}}"#

    var storeText: String {
        [
            #"{"id":"u1","custom_attributes":{"plan":"free"}}"#,
            "not json",
            team,
            #"{"no_id":true}"#,
            "",
            bio,
            "  \t",
            #"{"id":7}"#,
            pro,
        ].joined(separator: "\n") + "\n"
    }

    var store: StoreSnapshot { StoreSnapshot(bytes: Array(storeText.utf8)) }

    func get(_ target: String, now: Int64 = ServeFixture.now) -> ServeAnswer {
        ServeFixture.get(target, context: ServeFixture.context(store: store), now: now)
    }

    func testTheSnapshotIndexesProfilesAndReportsUnreadableLines() {
        XCTAssertEqual(store.count, 3)
        XCTAssertEqual(store.unreadableLines, [2, 4, 8])
        XCTAssertNil(store.profile(id: "nobody"))
        guard case .success(let later)? = store.profile(id: "u1") else { return XCTFail() }
        XCTAssertEqual(later.customAttributes["plan"], .string("pro"), "a later line with the same id wins")
        guard case .failure? = store.profile(id: "u3") else { return XCTFail("the 60-character value is accepted") }
        XCTAssertEqual(StoreSnapshot(bytes: []).count, 0)
        XCTAssertEqual(StoreSnapshot(bytes: Array("\r\n\n".utf8)).unreadableLines, [])
    }

    func testDecidesEveryPlacementForAStoredProfile() {
        let answer = get("/v1/profiles/u1/decisions")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.route, "/v1/profiles/{id}/decisions")
        XCTAssertEqual(answer.bodyText, expectedDecisionsBody(profile(pro), ["home", "banner"]))
    }

    func testTheIdIsPercentDecoded() {
        let answer = get("/v1/profiles/a%20b/decisions?placement=banner")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.bodyText, expectedDecisionsBody(profile(team), ["banner"]))
        XCTAssertEqual(answer.decisionLabels, ["banner=flow:flow_team"])
    }

    func testPlacementAndNowComeFromTheQuery() {
        let december = Timestamp.parse("2026-12-24T10:00:00Z")!
        let answer = get("/v1/profiles/u1/decisions?placement=banner&placement=home&now=2026-12-24T10:00:00Z")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.bodyText, expectedDecisionsBody(profile(pro), ["banner", "home"], now: december))
        XCTAssertEqual(answer.decisionLabels.first, "banner=flow:flow_winter")
        XCTAssertEqual(get("/v1/profiles/u1/decisions?placement=banner&now=2026-12-24").decisionLabels, ["banner=flow:flow_winter"])
        XCTAssertEqual(get("/v1/profiles/u1/decisions?placement=banner").decisionLabels, ["banner=no match"])
    }

    func testRefusals() {
        let cases: [(String, Int, String)] = [
            ("/v1/profiles/nobody/decisions", 404, "unknown_profile"),
            ("/v1/profiles/u1/decisions?placement=hme", 404, "unknown_placement"),
            ("/v1/profiles/u1/decisions?now=tomorrow", 400, "invalid_request"),
            ("/v1/profiles/u1/decisions?placment=home", 400, "invalid_request"),
            ("/v1/profiles/u1/decisions?placement=%zz", 400, "invalid_request"),
            ("/v1/profiles/u3/decisions", 422, "invalid_profile"),
        ]
        for (target, status, code) in cases {
            let answer = get(target)
            XCTAssertEqual(answer.status, status, target)
            XCTAssertEqual(answer.errorCode, code, target)
        }
        XCTAssertEqual(get("/v1/profiles/u1/decisions?placment=home").errorMessage, "unknown query parameter `placment`; did you mean `placement`?")
        XCTAssertEqual(get("/v1/profiles/u1/decisions?placement=hme").errorMessage, "unknown placement `hme`; did you mean `home`?")
        guard case .failure(let error)? = store.profile(id: "u3") else { return XCTFail() }
        XCTAssertEqual(get("/v1/profiles/u3/decisions").errorMessage, error.message)
    }

    func testWithoutAStoreTheRouteIs404NoStore() {
        let answer = ServeFixture.get("/v1/profiles/u1/decisions")
        XCTAssertEqual(answer.status, 404)
        XCTAssertEqual(answer.errorCode, "no_store")
    }
}
