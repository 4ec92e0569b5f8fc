/// One HTTP/1.1 request as the parser read it: the request line, the header fields and the
/// whole body (a chunked body already joined).
package struct HTTPRequest: Hashable, Sendable {
    /// The method, as sent (`GET`, `POST`, …).
    package var method: String
    /// The request target as sent, e.g. `/v1/profiles/u1/decisions?placement=onboarding`.
    package var target: String
    /// The path part of the target, still percent-encoded.
    package var path: String
    /// The query part of the target (after `?`), still encoded; empty when there is none.
    package var query: String
    /// `1` for HTTP/1.1, `0` for HTTP/1.0.
    package var minorVersion: Int
    /// The header fields in the order sent, names lowercased, values without surrounding blanks.
    package var headers: [HTTPHeader]
    /// The body.
    package var body: [UInt8]

    package init(method: String, target: String, minorVersion: Int = 1, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.method = method
        self.target = target
        if let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            path = String(target[..<mark])
            query = String(target[target.utf8.index(after: mark)...])
        } else {
            path = target
            query = ""
        }
        self.minorVersion = minorVersion
        self.headers = headers
        self.body = body
    }

    /// The value of the first field named `name` (lowercase), or nil.
    package func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// Whether the connection stays open after the answer: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    package var keepsAlive: Bool {
        guard headers.contains(where: { $0.name == "connection" }) else { return minorVersion == 1 }
        let options = headers.filter { $0.name == "connection" }.flatMap { $0.value.lowercased().split(separator: ",").map { $0.trimmingBlanks } }
        if minorVersion == 0 { return options.contains("keep-alive") }
        return !options.contains("close")
    }

    /// The path's segments after the leading `/`, each percent-decoded; nil when a segment
    /// decodes to bytes that are not UTF-8 or holds a malformed `%` escape.
    package var pathSegments: [String]? {
        if !path.utf8.contains(UInt8(ascii: "%")) {
            return path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { String(Substring($0)) }
        }
        var segments: [String] = []
        for part in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = PercentDecoding.decode(Substring(part), plusIsSpace: false) else { return nil }
            segments.append(decoded)
        }
        return segments
    }

    /// The query's `name=value` pairs in order, each decoded (`+` is a space); nil when one is
    /// malformed.
    package var queryItems: [(name: String, value: String)]? {
        var items: [(name: String, value: String)] = []
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentDecoding.decode(parts[0], plusIsSpace: true),
                  let value = PercentDecoding.decode(parts.count > 1 ? parts[1] : "", plusIsSpace: true) else { return nil }
            items.append((name, value))
        }
        return items
    }
}

/// One header field: its name lowercased and its value.
package struct HTTPHeader: Hashable, Sendable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    var trimmingBlanks: String {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
