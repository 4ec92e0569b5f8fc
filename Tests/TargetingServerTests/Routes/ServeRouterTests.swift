import XCTest
import TargetingBase
@testable import TargetingServer

final class ServeRouterTests: XCTestCase {
    func testHealthAndReadiness() {
        let health = ServeFixture.get("/healthz")
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(health.bodyText, #"{"status":"ok"}"#)
        XCTAssertEqual(health.route, "/healthz")
        let ready = ServeFixture.get("/readyz")
        XCTAssertEqual(ready.status, 200)
        XCTAssertEqual(ready.bodyText, #"{"status":"ready","rules":"0123456789abcdef"}"#)
        let draining = ServeFixture.get("/readyz", context: ServeFixture.context(draining: true))
        XCTAssertEqual(draining.status, 503)
        XCTAssertEqual(draining.bodyText, #"{"status":"stopping","rules":"0123456789abcdef"}"#)
        XCTAssertEqual(ServeFixture.get("/healthz", context: ServeFixture.context(draining: true)).status, 200)
    }

    func testAWrongMethodIs405WithAllow() {
        let cases: [(String, String, String)] = [
            ("GET", "/v1/resolve", "POST"),
            ("HEAD", "/v1/resolve", "POST"),
            ("PUT", "/ofrep/v1/evaluate/flags", "POST"),
            ("GET", "/ofrep/v1/evaluate/flags/home", "POST"),
            ("POST", "/healthz", "GET, HEAD"),
            ("DELETE", "/v1/profiles/u1/decisions", "GET, HEAD"),
            ("POST", "/metrics", "GET, HEAD"),
            ("get", "/readyz", "GET, HEAD"),
        ]
        for (method, path, allow) in cases {
            let answer = ServeFixture.answer(ServeFixture.request(method, path))
            XCTAssertEqual(answer.status, 405, "\(method) \(path)")
            XCTAssertEqual(answer.header("allow"), allow, "\(method) \(path)")
            XCTAssertEqual(answer.errorCode, "method_not_allowed")
        }
    }

    func testUnknownPathsAre404() {
        for path in ["/", "/v1", "/v1/resolve/x", "/v2/resolve", "/healthz/", "/v1/profiles//decisions", "/ofrep/v1/evaluate/flags/",
                     "/ofrep/v1/evaluate/flags/home/x", "/Healthz"] {
            let answer = ServeFixture.get(path)
            XCTAssertEqual(answer.status, 404, path)
            XCTAssertEqual(answer.errorCode, "not_found", path)
            XCTAssertEqual(answer.route, ServeRouter.unmatched, path)
        }
        let malformed = ServeFixture.get("/v1/profiles/%zz/decisions")
        XCTAssertEqual(malformed.status, 400)
        XCTAssertEqual(malformed.errorCode, "invalid_request")
    }

    func testPathsArePercentDecodedBeforeRouting() {
        XCTAssertEqual(ServeFixture.get("/%68ealthz").status, 200)
        let flag = ServeFixture.post("/ofrep/v1/evaluate/flags/%62anner", "{}")
        XCTAssertEqual(flag.status, 200)
        XCTAssertEqual(flag.json["key"], .string("banner"))
    }

    func testHeadAnswersWithoutABody() {
        for path in ["/healthz", "/readyz", "/metrics"] {
            let head = ServeFixture.answer(ServeFixture.request("HEAD", path))
            let get = ServeFixture.answer(ServeFixture.request("GET", path))
            XCTAssertEqual(head.status, 200, path)
            var headBytes: [UInt8] = [], getBytes: [UInt8] = []
            head.response.append(to: &headBytes, keepAlive: true, omitBody: true)
            get.response.append(to: &getBytes, keepAlive: true)
            let headText = String(decoding: headBytes, as: UTF8.self)
            XCTAssertTrue(headText.hasSuffix("\r\n\r\n"), path)
            XCTAssertTrue(headText.contains("Content-Length: \(get.response.body.count)\r\n"), path)
            XCTAssertEqual(headBytes + get.response.body, getBytes, "HEAD is GET without the body: \(path)")
        }
    }

    func testMetricsCountRequestsLatencyDecisionsAndReloads() {
        let metrics = ServerMetrics()
        metrics.record(route: "/v1/resolve", status: 200, seconds: 0.00048828125, decisions: [("home", "paywall:pw_default"), ("banner", "no match")])
        metrics.record(route: "/v1/resolve", status: 200, seconds: 3, decisions: [("home", "paywall:pw_default")])
        metrics.record(route: "/v1/resolve", status: 400, seconds: 20, decisions: [])
        metrics.record(route: "unmatched", status: 404, seconds: 0, decisions: [])
        metrics.recordReload(.rejected)
        metrics.recordReload(.applied)
        metrics.recordReload(.applied)
        metrics.connectionsChanged(by: 2)
        metrics.connectionsChanged(by: -1)
        metrics.recordRefusedConnection()
        XCTAssertEqual(metrics.reloadCount(.applied), 2)
        XCTAssertEqual(metrics.reloadCount(.storeFailed), 0)

        let answer = ServeFixture.answer(ServeFixture.request("GET", "/metrics"), metrics: metrics)
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.header("content-type"), "text/plain; version=0.0.4; charset=utf-8")
        let lines = answer.bodyText.split(separator: "\n").map(String.init)
        for expected in [
            #"targeting_http_requests_total{route="/v1/resolve",status="200"} 2"#,
            #"targeting_http_requests_total{route="/v1/resolve",status="400"} 1"#,
            #"targeting_http_requests_total{route="unmatched",status="404"} 1"#,
            #"targeting_http_request_duration_seconds_bucket{route="/v1/resolve",le="0.0001"} 0"#,
            #"targeting_http_request_duration_seconds_bucket{route="/v1/resolve",le="0.00025"} 0"#,
            #"targeting_http_request_duration_seconds_bucket{route="/v1/resolve",le="0.0005"} 1"#,
            #"targeting_http_request_duration_seconds_bucket{route="/v1/resolve",le="2.5"} 1"#,
            #"targeting_http_request_duration_seconds_bucket{route="/v1/resolve",le="10"} 2"#,
            #"targeting_http_request_duration_seconds_bucket{route="/v1/resolve",le="+Inf"} 3"#,
            #"targeting_http_request_duration_seconds_sum{route="/v1/resolve"} 23.00048828125"#,
            #"targeting_http_request_duration_seconds_count{route="/v1/resolve"} 3"#,
            #"targeting_http_request_duration_seconds_bucket{route="unmatched",le="0.0001"} 1"#,
            #"targeting_decisions_total{placement="banner",destination="no match"} 1"#,
            #"targeting_decisions_total{placement="home",destination="paywall:pw_default"} 2"#,
            #"targeting_reloads_total{result="applied"} 2"#,
            #"targeting_reloads_total{result="rejected"} 1"#,
            #"targeting_reloads_total{result="store_applied"} 0"#,
            #"targeting_reloads_total{result="store_failed"} 0"#,
            #"targeting_rules_info{version="0123456789abcdef"} 1"#,
            "targeting_open_connections 1",
            "targeting_refused_connections_total 1",
            "# TYPE targeting_http_request_duration_seconds histogram",
            "# TYPE targeting_http_requests_total counter",
        ] {
            XCTAssertTrue(lines.contains(expected), "missing: \(expected)\n\(answer.bodyText)")
        }
        // Every sample line is `name{labels} value` or `name value`, and the series are sorted.
        let samples = lines.filter { !$0.hasPrefix("#") }
        for line in samples {
            XCTAssertEqual(line.split(separator: " ").count, line.contains("destination=\"no match\"") ? 3 : 2, line)
        }
        let requestLines = samples.filter { $0.hasPrefix("targeting_http_requests_total") }
        XCTAssertEqual(requestLines, requestLines.sorted())
    }

    func testMetricLabelsAreEscaped() {
        let metrics = ServerMetrics()
        metrics.record(route: "a\"b\\c\nd", status: 200, seconds: 0, decisions: [])
        let text = metrics.prometheusText(rulesVersion: "v")
        XCTAssertTrue(text.contains(#"targeting_http_requests_total{route="a\"b\\c\nd",status="200"} 1"#), text)
    }

    func testTheRouterCountsDecisionsItGives() {
        let answer = ServeFixture.post("/v1/resolve", #"{"profile": {"id": "u5", "custom_attributes": {"plan": "team"}}}"#)
        XCTAssertEqual(answer.decisionLabels, ["home=paywall:pw_default", "banner=flow:flow_team"])
        XCTAssertEqual(ServeFixture.post("/v1/resolve", "{").decisionLabels, [])
    }

    func testATokenGuardsEveryRouteButHealthz() {
        let context = ServeFixture.context(store: StoreSnapshot(bytes: Array(#"{"id":"u1"}"#.utf8)), token: "s3cret-token")
        let requests = [
            ServeFixture.request("GET", "/readyz"),
            ServeFixture.request("GET", "/metrics"),
            ServeFixture.request("GET", "/v1/profiles/u1/decisions"),
            ServeFixture.request("POST", "/v1/resolve", body: #"{"profile": {"id": "u1"}}"#),
            ServeFixture.request("POST", "/ofrep/v1/evaluate/flags/home", body: "{}"),
            ServeFixture.request("POST", "/ofrep/v1/evaluate/flags", body: "{}"),
            ServeFixture.request("GET", "/nowhere"),
            ServeFixture.request("DELETE", "/v1/resolve"),
        ]
        for request in requests {
            for authorization in [nil, "Bearer wrong", "Bearer s3cret-toke", "Bearer s3cret-token2", "Basic s3cret-token", "s3cret-token", "Bearer ", "Bearer"] {
                var asked = request
                if let authorization { asked.headers.append(HTTPHeader(name: "authorization", value: authorization)) }
                let answer = ServeFixture.answer(asked, context: context)
                XCTAssertEqual(answer.status, 401, "\(request.method) \(request.path) with \(authorization ?? "no header")")
                XCTAssertEqual(answer.errorCode, "unauthorized")
                XCTAssertEqual(answer.header("www-authenticate"), "Bearer")
            }
            for authorization in ["Bearer s3cret-token", "bearer s3cret-token", "BEARER   s3cret-token"] {
                var asked = request
                asked.headers.append(HTTPHeader(name: "authorization", value: authorization))
                let answer = ServeFixture.answer(asked, context: context)
                let unguarded = ServeFixture.answer(request, context: ServeFixture.context(store: context.store))
                XCTAssertEqual(answer.status, unguarded.status, "\(request.method) \(request.path) with \(authorization)")
                XCTAssertNotEqual(answer.status, 401)
            }
        }
        XCTAssertEqual(ServeFixture.answer(ServeFixture.request("GET", "/healthz"), context: context).status, 200)
        XCTAssertEqual(ServeFixture.answer(ServeFixture.request("POST", "/healthz"), context: context).status, 405)
    }
}
