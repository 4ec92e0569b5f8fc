#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import XCTest
@testable import TargetingServer

/// The real server on a loopback port, spoken to over plain sockets.
final class HTTPServerTests: XCTestCase {
    /// A server running on a thread of its own until `stop()`.
    final class Running: @unchecked Sendable {
        let server: HTTPServer
        let metrics = ServerMetrics()
        private let finished = DispatchSemaphore(value: 0)

        init(requestSeconds: Double = 1, maxConnections: Int = 4) throws {
            let limits = HTTPLimits(maxBodyBytes: 1 << 20, maxHeaderBytes: 16 << 10, requestSeconds: requestSeconds,
                                    maxConnections: maxConnections, drainSeconds: 3)
            server = try HTTPServer(host: "127.0.0.1", port: 0, limits: limits, state: ServeState(ServeFixture.context()),
                                    metrics: metrics, log: ServerLog { _ in })
            let thread = Thread { [server, finished] in
                server.run()
                finished.signal()
            }
            thread.start()
        }

        /// Stops the server; whether `run()` returned within `seconds`.
        func stop(within seconds: Double = 3) -> Bool {
            server.stop()
            return finished.wait(timeout: .now() + seconds) == .success
        }

        /// Whether `run()` returned within `seconds` (after a `stop()`).
        func hasReturned(within seconds: Double) -> Bool {
            finished.wait(timeout: .now() + seconds) == .success
        }

        func client() -> Client { Client(port: server.port) }
    }

    /// One answer as a client reads it.
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    /// A blocking TCP client with a 5 s read timeout.
    final class Client {
        let fd: Int32
        private var buffer: [UInt8] = []
        private(set) var closed = false

        init(port: Int) {
            #if canImport(Glibc)
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
            fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            precondition(connected == 0, "cannot connect: \(String(cString: strerror(errno)))")
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close() }

        func close() {
            guard !closed else { return }
            closed = true
            #if canImport(Glibc)
            Glibc.close(fd)
            #else
            Darwin.close(fd)
            #endif
        }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let sent = bytes.withUnsafeBytes { systemSend(fd, $0.baseAddress, $0.count, flags) }
            precondition(sent == bytes.count)
        }

        /// Reads more bytes; false at the end of the stream (or a timeout).
        private func receive() -> Bool {
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            buffer += chunk[0..<count]
            return true
        }

        /// The next answer, or nil when the stream ends first.
        func response() -> Response? {
            while true {
                if let parsed = takeResponse() { return parsed }
                guard receive() else { return nil }
            }
        }

        /// Everything until the server closes the stream.
        func rest() -> String {
            while receive() {}
            defer { buffer = [] }
            return String(decoding: buffer, as: UTF8.self)
        }

        private func takeResponse() -> Response? {
            let marker = Array("\r\n\r\n".utf8)
            guard let end = buffer.indices.first(where: { buffer[$0...].starts(with: marker) }) else { return nil }
            let head = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
            let statusParts = head[0].split(separator: " ")
            let status = Int(statusParts[1])!
            var headers: [String: String] = [:]
            for line in head.dropFirst() {
                let colon = line.firstIndex(of: ":")!
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let length = Int(headers["content-length"] ?? "0")!
            let bodyStart = end + marker.count
            guard buffer.count >= bodyStart + length else { return nil }
            let body = String(decoding: buffer[bodyStart..<(bodyStart + length)], as: UTF8.self)
            buffer.removeFirst(bodyStart + length)
            return Response(status: status, headers: headers, body: body)
        }
    }

    func testKeepAlivePipeliningAndContinue() throws {
        let running = try Running()
        let client = running.client()
        client.send("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
        let first = client.response()
        XCTAssertEqual(first?.status, 200)
        XCTAssertEqual(first?.body, #"{"status":"ok"}"#)
        XCTAssertNil(first?.headers["connection"])
        // The same connection takes a second request, split over two writes.
        client.send("GET /rea")
        usleep(20_000)
        client.send("dyz HTTP/1.1\r\n\r\n")
        XCTAssertEqual(client.response()?.body, #"{"status":"ready","rules":"0123456789abcdef"}"#)

        // Three requests in one write are answered in order; the last closes.
        let resolve = #"{"profile": {"id": "u1"}, "placements": ["home"]}"#
        client.send("GET /healthz HTTP/1.1\r\n\r\nPOST /v1/resolve HTTP/1.1\r\nContent-Length: \(resolve.utf8.count)\r\n\r\n\(resolve)"
                    + "GET /nowhere HTTP/1.1\r\nConnection: close\r\n\r\n")
        let answers = (0..<3).compactMap { _ in client.response() }
        XCTAssertEqual(answers.map(\.status), [200, 200, 404])
        XCTAssertEqual(answers.first?.body, #"{"status":"ok"}"#)
        XCTAssertTrue(answers.dropFirst().first?.body.hasPrefix(#"{"rules":"0123456789abcdef","decisions":[{"profile_id":"u1","placement":"home""#) == true)
        XCTAssertEqual(answers.last?.headers["connection"], "close")
        XCTAssertEqual(client.rest(), "", "the server closes after `Connection: close`")
        client.close()

        // `Expect: 100-continue` gets the interim answer before the body is sent.
        let expecting = running.client()
        expecting.send("POST /v1/resolve HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: \(resolve.utf8.count)\r\n\r\n")
        XCTAssertEqual(expecting.response()?.status, 100)
        expecting.send(resolve)
        XCTAssertEqual(expecting.response()?.status, 200)

        // HTTP/1.0 closes unless asked to keep alive.
        let old = running.client()
        old.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        XCTAssertEqual(old.response()?.headers["connection"], "keep-alive")
        old.send("GET /healthz HTTP/1.0\r\n\r\n")
        XCTAssertEqual(old.response()?.headers["connection"], "close")
        XCTAssertEqual(old.rest(), "")
        old.close()
        expecting.close()

        XCTAssertTrue(running.stop())
        let metrics = running.metrics.prometheusText(rulesVersion: "v")
        XCTAssertTrue(metrics.contains(#"targeting_http_requests_total{route="/healthz",status="200"} 4"#), metrics)
        XCTAssertTrue(metrics.contains(#"targeting_decisions_total{placement="home",destination="paywall:pw_default"} 2"#), metrics)
    }

    func testAMalformedRequestIsAnsweredAndClosed() throws {
        let running = try Running()
        let client = running.client()
        client.send("GET / HTTP/2.0\r\n\r\nGET /healthz HTTP/1.1\r\n\r\n")
        let answer = client.response()
        XCTAssertEqual(answer?.status, 505)
        XCTAssertEqual(answer?.headers["connection"], "close")
        XCTAssertTrue(answer?.body.contains(#""code":"version_not_supported""#) == true)
        XCTAssertEqual(client.rest(), "", "nothing after a refusal is answered")
        client.close()
        let large = running.client()
        large.send("POST /v1/resolve HTTP/1.1\r\nContent-Length: 2000000\r\n\r\n")
        XCTAssertEqual(large.response()?.status, 413)
        large.close()
        XCTAssertTrue(running.stop())
    }

    func testAPartialRequestTimesOutWith408AndAnIdleConnectionClosesQuietly() throws {
        let running = try Running(requestSeconds: 1)
        let partial = running.client()
        let idle = running.client()
        let started = Date()
        partial.send("GET /healthz HTTP/1.1\r\nHo")
        let answer = partial.response()
        XCTAssertEqual(answer?.status, 408)
        XCTAssertEqual(answer?.headers["connection"], "close")
        XCTAssertTrue(answer?.body.contains(#""code":"request_timeout""#) == true)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.8)
        XCTAssertEqual(partial.rest(), "")
        XCTAssertEqual(idle.rest(), "", "an idle connection is closed without an answer")
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        partial.close()
        idle.close()
        XCTAssertTrue(running.stop())
    }

    func testAConnectionPastTheLimitGets503() throws {
        let running = try Running(requestSeconds: 2, maxConnections: 2)
        let first = running.client(), second = running.client()
        for client in [first, second] {
            client.send("GET /healthz HTTP/1.1\r\n\r\n")
            XCTAssertEqual(client.response()?.status, 200)
        }
        let third = running.client()
        let refused = third.response()
        XCTAssertEqual(refused?.status, 503)
        XCTAssertEqual(refused?.headers["retry-after"], "1")
        XCTAssertEqual(refused?.headers["connection"], "close")
        XCTAssertTrue(refused?.body.contains(#""code":"too_many_connections""#) == true)
        XCTAssertEqual(third.rest(), "")
        third.close()
        // Once one closes, a new connection is served.
        first.close()
        let deadline = Date().addingTimeInterval(2)
        while running.server.openConnections > 1, Date() < deadline { usleep(5_000) }
        let fourth = running.client()
        fourth.send("GET /healthz HTTP/1.1\r\n\r\n")
        XCTAssertEqual(fourth.response()?.status, 200)
        XCTAssertTrue(running.metrics.prometheusText(rulesVersion: "v").contains("targeting_refused_connections_total 1"))
        second.close()
        fourth.close()
        XCTAssertTrue(running.stop())
    }

    func testStopAnswersTheRequestInFlightThenReturns() throws {
        let running = try Running(requestSeconds: 2)
        let idle = running.client()
        idle.send("GET /healthz HTTP/1.1\r\n\r\n")
        XCTAssertEqual(idle.response()?.status, 200)
        let busy = running.client()
        let body = #"{"profile": {"id": "u1"}}"#
        // The interim answer shows the server has the request's head, so it is in flight.
        busy.send("POST /v1/resolve HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body.prefix(5))
        XCTAssertEqual(busy.response()?.status, 100)
        running.server.stop()
        // The idle connection is closed; the one in the middle of a request is not.
        XCTAssertEqual(idle.rest(), "")
        XCTAssertFalse(running.hasReturned(within: 0.3), "run() waits for the request in flight")
        XCTAssertEqual(running.server.openConnections, 1)
        busy.send(String(body.dropFirst(5)))
        let answer = busy.response()
        XCTAssertEqual(answer?.status, 200)
        XCTAssertEqual(answer?.headers["connection"], "close", "a request answered while stopping closes its connection")
        XCTAssertTrue(answer?.body.hasPrefix(#"{"rules":"0123456789abcdef","decisions":["#) == true)
        XCTAssertEqual(busy.rest(), "")
        busy.close()
        idle.close()
        XCTAssertTrue(running.hasReturned(within: 3))
        XCTAssertEqual(running.server.openConnections, 0)
    }
}

/// `send(2)`, under a name the client's own `send` does not hide.
private func systemSend(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(fd, buffer, count, flags)
}
