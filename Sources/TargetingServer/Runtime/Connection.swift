#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// One client connection: reads requests, answers each in order (pipelined ones in one
/// write), keeps the connection open between them, and closes it on `Connection: close`,
/// a refused request, a timeout, or when the server stops.
struct Connection {
    let fd: Int32
    let server: HTTPServer

    /// Bytes read and not yet consumed start at `start`.
    private var buffer: [UInt8] = []
    private var start = 0
    private var output: [UInt8] = []
    private var receiveTimeout = -1.0

    init(fd: Int32, server: HTTPServer) {
        self.fd = fd
        self.server = server
    }

    mutating func serve() {
        let limits = server.limits
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        // The request must be whole by then: set when the connection is ready for a request,
        // and again at the first byte of one.
        var deadline = Connection.monotonic() + limits.requestSeconds
        var sentContinue = false
        while true {
            let parsed = buffer.withUnsafeBufferPointer { all in
                HTTPRequestParser.parse(UnsafeBufferPointer(rebasing: all[start...]), limits: limits)
            }
            switch parsed {
            case .request(let request, let length):
                start += length
                sentContinue = false
                let stopping = server.mark(fd, busy: true)
                let keepAlive = request.keepsAlive && !stopping
                answer(request, keepAlive: keepAlive)
                guard keepAlive else { return finish() }
                deadline = Connection.monotonic() + limits.requestSeconds
            case .refused(let status, let message):
                let code: String = switch status.code {
                case 413: "payload_too_large"
                case 431: "headers_too_large"
                case 501: "not_implemented"
                case 505: "version_not_supported"
                default: "bad_request"
                }
                ServeError(status, code, message).response.append(to: &output, keepAlive: false)
                server.metrics.record(route: ServeRouter.unmatched, status: status.code, seconds: 0, decisions: [])
                return finish()
            case .incomplete(let expectsContinue):
                guard flush() else { return }
                if start == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    start = 0
                } else if start > 0 {
                    buffer.removeSubrange(..<start)
                    start = 0
                }
                if buffer.isEmpty, server.mark(fd, busy: false) { return }
                if expectsContinue, !sentContinue {
                    sentContinue = true
                    guard Socket.sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return }
                }
                let remaining = deadline - Connection.monotonic()
                guard remaining > 0 else { return timedOut() }
                if abs(remaining - receiveTimeout) > 0.05 {
                    Socket.setTimeout(fd, option: SO_RCVTIMEO, seconds: remaining)
                    receiveTimeout = remaining
                }
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    if buffer.isEmpty {
                        deadline = Connection.monotonic() + limits.requestSeconds
                        _ = server.mark(fd, busy: true)
                    }
                    buffer.append(contentsOf: chunk[0..<count])
                } else if count == 0 {
                    return
                } else if errno == EINTR {
                    continue
                } else if errno == EAGAIN || errno == EWOULDBLOCK {
                    return timedOut()
                } else {
                    return
                }
            }
        }
    }

    /// Answers one request into the output.
    private mutating func answer(_ request: HTTPRequest, keepAlive: Bool) {
        let started = Connection.monotonic()
        let context = server.state.context
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let now = Int64(wall.tv_sec) * 1000 + Int64(wall.tv_nsec) / 1_000_000
        let answer = ServeRouter.answer(request, context: context, now: now, metrics: server.metrics)
        var response = answer.response
        if keepAlive, request.minorVersion == 0 { response.headers.append(HTTPHeader(name: "Connection", value: "keep-alive")) }
        response.append(to: &output, keepAlive: keepAlive, omitBody: request.method == "HEAD")
        server.metrics.record(route: answer.route, status: response.status.code, seconds: Connection.monotonic() - started, decisions: answer.decisions)
    }

    /// A request not whole in time: 408 when part of one came, else a quiet close.
    private mutating func timedOut() {
        guard !buffer.isEmpty else { return }
        ServeError(.requestTimeout, "request_timeout", "the request was not whole within \(Int(server.limits.requestSeconds)) s").response
            .append(to: &output, keepAlive: false)
        server.metrics.record(route: ServeRouter.unmatched, status: 408, seconds: 0, decisions: [])
        finish()
    }

    /// Sends what is pending, then ends the connection so the client reads all of it.
    private mutating func finish() {
        guard flush() else { return }
        Socket.shutdownWriting(fd)
        // Read what the client still sends for up to 2 s (and 16 MiB), so closing does not reset the
        // connection before it has read the answer.
        let until = Connection.monotonic() + 2
        var sink = [UInt8](repeating: 0, count: 64 * 1024)
        var drained = 0
        while drained < 16 << 20 {
            let left = until - Connection.monotonic()
            guard left > 0 else { break }
            Socket.setTimeout(fd, option: SO_RCVTIMEO, seconds: left)
            let count = sink.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            drained += count
        }
    }

    /// Writes the pending output; false when the client is gone.
    private mutating func flush() -> Bool {
        guard !output.isEmpty else { return true }
        defer { output.removeAll(keepingCapacity: true) }
        return Socket.sendAll(fd, output)
    }

    static func monotonic() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
