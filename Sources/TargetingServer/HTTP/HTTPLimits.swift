/// What one request and the whole server may take before the server refuses.
package struct HTTPLimits: Hashable, Sendable {
    /// The largest body, decoded (413 beyond).
    package var maxBodyBytes: Int
    /// The largest request line and header section, up to the blank line, with any empty
    /// lines before the request line (431 beyond).
    package var maxHeaderBytes: Int
    /// Seconds from a request's first byte (or from when the connection became ready for
    /// one) until it must be whole (408, or a quiet close when nothing came).
    package var requestSeconds: Double
    /// The most connections open at once (503 for the next one).
    package var maxConnections: Int
    /// Seconds that in-flight requests get to finish when the server stops.
    package var drainSeconds: Double

    /// The server's limits: 1 MiB bodies, 16 KiB of headers, 10 s per request, 1,024
    /// connections, 10 s to drain.
    package static let standard = HTTPLimits(maxBodyBytes: 1 << 20, maxHeaderBytes: 16 << 10, requestSeconds: 10,
                                             maxConnections: 1024, drainSeconds: 10)

    package init(maxBodyBytes: Int, maxHeaderBytes: Int, requestSeconds: Double, maxConnections: Int, drainSeconds: Double) {
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.requestSeconds = requestSeconds
        self.maxConnections = maxConnections
        self.drainSeconds = drainSeconds
    }
}
