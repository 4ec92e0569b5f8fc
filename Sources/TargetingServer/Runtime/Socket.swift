#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few socket calls the server makes, on Linux and Darwin alike.
enum Socket {
    #if canImport(Glibc)
    static let streamType = Int32(SOCK_STREAM.rawValue)
    static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    static let streamType = SOCK_STREAM
    static let sendFlags: Int32 = 0
    #endif

    /// The last system error's text.
    static var lastError: String { String(cString: strerror(errno)) }

    /// A listening socket bound to `host:port` (port 0: any free port) and the port it got.
    static func listening(host: String, port: Int, backlog: Int32 = 4096) -> Result<(fd: Int32, port: Int), ServeStartError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamType
        hints.ai_flags = AI_PASSIVE
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            return .failure(ServeStartError("cannot listen on \(host):\(port): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(first) }
        var lastProblem = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, streamType, 0)
            guard fd >= 0 else { lastProblem = lastError; continue }
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, listen(fd, backlog) == 0 else {
                lastProblem = lastError
                close(fd)
                continue
            }
            return .success((fd, boundPort(fd) ?? port))
        }
        return .failure(ServeStartError("cannot listen on \(host):\(port): \(lastProblem)"))
    }

    static func boundPort(_ fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) } }
        case AF_INET6:
            return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) } }
        default:
            return nil
        }
    }

    /// Settings for an accepted connection: no Nagle delay, no SIGPIPE, a send timeout.
    static func configure(_ fd: Int32, sendSeconds: Double) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        setTimeout(fd, option: SO_SNDTIMEO, seconds: sendSeconds)
    }

    /// Sets a receive or send timeout (`SO_RCVTIMEO`, `SO_SNDTIMEO`).
    static func setTimeout(_ fd: Int32, option: Int32, seconds: Double) {
        let whole = max(0, seconds)
        var time = timeval(tv_sec: .init(whole), tv_usec: .init((whole - whole.rounded(.down)) * 1_000_000))
        if time.tv_sec == 0 && time.tv_usec == 0 { time.tv_usec = 1000 }
        setsockopt(fd, SOL_SOCKET, option, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes every byte; false when the peer is gone or the send timed out.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                let count = send(fd, buffer.baseAddress! + sent, buffer.count - sent, sendFlags)
                if count > 0 { sent += count; continue }
                if count < 0, errno == EINTR { continue }
                return false
            }
            return true
        }
    }

    /// Waits up to `milliseconds` for `fd` to be readable (or for a connection to accept).
    static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// Stops reading (a blocked read returns at once); writing still works.
    static func shutdownReading(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_RD))
    }

    /// Ends sending, so the peer reads the end after what was sent.
    static func shutdownWriting(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
    }
}

/// Why the server could not start.
package struct ServeStartError: Error, Hashable, Sendable {
    package var message: String
    package init(_ message: String) { self.message = message }
}
