#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TargetingBase

/// The HTTP/1.1 server: a thread accepts connections and each connection is served by a
/// thread of its own with blocking reads and writes, bounded by `HTTPLimits` (1,024
/// connections, each request whole within 10 s). Requests are answered by `ServeRouter` from
/// the `ServeState` of the moment.
///
/// `stop()` (SIGTERM, SIGINT) closes the listening socket, ends the connections waiting for
/// a request, lets each request in flight be answered (with `Connection: close`), and
/// returns from `run()` when all are done or `drainSeconds` have passed.
package final class HTTPServer: @unchecked Sendable {
    package let limits: HTTPLimits
    package let state: ServeState
    package let metrics: ServerMetrics
    let log: ServerLog
    let listenFD: Int32
    /// The port listened on (the one chosen when asked for port 0).
    package let port: Int

    private let lock = NSLock()
    /// Open connections: whether each is in the middle of a request.
    private var connections: [Int32: Bool] = [:]
    private var stopping = false

    /// Binds and listens; nothing is accepted before `run()`.
    package init(host: String, port: Int, limits: HTTPLimits, state: ServeState, metrics: ServerMetrics, log: ServerLog) throws(ServeStartError) {
        switch Socket.listening(host: host, port: port) {
        case .failure(let error): throw error
        case .success(let listening):
            listenFD = listening.fd
            self.port = listening.port
        }
        self.limits = limits
        self.state = state
        self.metrics = metrics
        self.log = log
    }

    /// Accepts and serves until `stop()`, then drains; returns when every connection closed or
    /// the drain time is up.
    package func run() {
        while !isStopping {
            guard Socket.waitReadable(listenFD, milliseconds: 200) else { continue }
            let client = accept(listenFD, nil, nil)
            if client < 0 {
                // Out of descriptors (or a connection gone before it was accepted): wait a little.
                if errno == EMFILE || errno == ENFILE { usleep(10_000) }
                continue
            }
            Socket.configure(client, sendSeconds: limits.requestSeconds)
            switch admit(client) {
            case .admitted: break
            case .full:
                refuse(client)
                continue
            case .stopping:
                // Accepted as the server began stopping: closed unanswered, as if the
                // listening socket had closed first.
                close(client)
                continue
            }
            metrics.connectionsChanged(by: 1)
            let thread = Thread { [self] in
                var connection = Connection(fd: client, server: self)
                connection.serve()
                close(client)
                self.release(client)
                self.metrics.connectionsChanged(by: -1)
            }
            thread.stackSize = 1 << 21
            thread.start()
        }
        close(listenFD)
        drain()
    }

    /// Begins stopping: `run()` stops accepting and drains.
    package func stop() {
        lock.withLock { stopping = true }
        state.update { $0.draining = true }
    }

    package var isStopping: Bool { lock.withLock { stopping } }

    /// How many connections are open.
    package var openConnections: Int { lock.withLock { connections.count } }

    /// What becomes of an accepted connection.
    private enum Admission {
        case admitted
        /// Past `maxConnections`: answered 503.
        case full
        /// The server is stopping: closed without an answer.
        case stopping
    }

    private func admit(_ fd: Int32) -> Admission {
        lock.withLock {
            if stopping { return .stopping }
            guard connections.count < limits.maxConnections else { return .full }
            connections[fd] = false
            return .admitted
        }
    }

    private func release(_ fd: Int32) {
        lock.withLock { _ = connections.removeValue(forKey: fd) }
    }

    /// Marks a connection as in a request (or not); returns whether the server is stopping.
    func mark(_ fd: Int32, busy: Bool) -> Bool {
        lock.withLock {
            connections[fd] = busy
            return stopping
        }
    }

    /// Answers a connection past the limit with 503 and closes it.
    private func refuse(_ fd: Int32) {
        metrics.recordRefusedConnection()
        let error = ServeError(.unavailable, "too_many_connections", "the server has \(limits.maxConnections) connections open; try again")
        var bytes: [UInt8] = []
        var response = error.response
        response.headers.append(HTTPHeader(name: "Retry-After", value: "1"))
        response.append(to: &bytes, keepAlive: false)
        Socket.setTimeout(fd, option: SO_SNDTIMEO, seconds: 0.2)
        _ = Socket.sendAll(fd, bytes)
        Socket.shutdownWriting(fd)
        close(fd)
        metrics.record(route: ServeRouter.unmatched, status: 503, seconds: 0, decisions: [])
    }

    private func drain() {
        log.log(.info, "draining", [JSONMember(key: "connections", value: .number(Double(openConnections)))])
        lock.withLock {
            for (fd, busy) in connections where !busy { Socket.shutdownReading(fd) }
        }
        let deadline = Date().addingTimeInterval(limits.drainSeconds)
        while openConnections > 0, Date() < deadline { usleep(10_000) }
        let left = openConnections
        log.log(left == 0 ? .info : .warning, "stopped", [JSONMember(key: "unfinished_connections", value: .number(Double(left)))])
    }
}
