import XCTest
@testable import TargetingServer

final class ServeConfigurationTests: XCTestCase {
    func testListenAddresses() {
        let good: [(String, String, Int)] = [
            ("127.0.0.1:8080", "127.0.0.1", 8080),
            ("0.0.0.0:0", "0.0.0.0", 0),
            ("localhost:65535", "localhost", 65535),
            (":9000", "127.0.0.1", 9000),
            ("[::1]:8080", "::1", 8080),
            ("[::]:1", "::", 1),
        ]
        for (text, host, port) in good {
            guard let address = ServeConfiguration.listenAddress(text) else {
                XCTFail("refused: \(text)")
                continue
            }
            XCTAssertEqual(address.host, host, text)
            XCTAssertEqual(address.port, port, text)
        }
        for text in ["", "8080", "localhost", "host:", "host:65536", "host:-1", "host:80x", "host: 80", "[::1]8080", "[::1", "[::1]:",
                     "host:\u{0663}", "::1:8080x"] {
            XCTAssertNil(ServeConfiguration.listenAddress(text), text)
        }
    }

    func testDurations() {
        let good: [(String, Double)] = [("2s", 2), ("500ms", 0.5), ("1m", 60), ("3", 3), ("0.25s", 0.25), ("1.5m", 90)]
        for (text, seconds) in good {
            XCTAssertEqual(ServeConfiguration.duration(text), seconds, text)
        }
        for text in ["", "0", "0s", "-1s", "s", "ms", "abc", "1h", "2 s", "inf", "nan", "1e400s", "2sec"] {
            XCTAssertNil(ServeConfiguration.duration(text), text)
        }
    }

    func testTheDefaults() {
        let configuration = ServeConfiguration(rulesPath: "Rules")
        XCTAssertEqual(configuration.host, "127.0.0.1")
        XCTAssertEqual(configuration.port, 8080)
        XCTAssertEqual(configuration.reloadInterval, 2)
        XCTAssertEqual(configuration.limits, HTTPLimits.standard)
        XCTAssertEqual(HTTPLimits.standard.maxBodyBytes, 1 << 20)
        XCTAssertEqual(HTTPLimits.standard.maxHeaderBytes, 16 << 10)
        XCTAssertEqual(HTTPLimits.standard.maxConnections, 1024)
        XCTAssertEqual(HTTPLimits.standard.requestSeconds, 10)
    }
}
