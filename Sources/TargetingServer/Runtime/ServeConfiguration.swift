/// What `targeting serve` was told: where the rules, the store and the token are, where to
/// listen, and how often to look for changes.
package struct ServeConfiguration: Sendable {
    package var rulesPath: String
    package var storePath: String?
    package var tokenPath: String?
    package var host: String
    package var port: Int
    /// Seconds between looks at the files' sizes and modification times.
    package var reloadInterval: Double
    package var limits: HTTPLimits

    package init(rulesPath: String, storePath: String? = nil, tokenPath: String? = nil, host: String = "127.0.0.1", port: Int = 8080,
                 reloadInterval: Double = 2, limits: HTTPLimits = .standard) {
        self.rulesPath = rulesPath
        self.storePath = storePath
        self.tokenPath = tokenPath
        self.host = host
        self.port = port
        self.reloadInterval = reloadInterval
        self.limits = limits
    }

    /// `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (on 127.0.0.1), read into a host and a port.
    package static func listenAddress(_ text: String) -> (host: String, port: Int)? {
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = Int(portText), (0...65535).contains(port) else { return nil }
        return (host.isEmpty ? "127.0.0.1" : String(host), port)
    }

    /// A duration such as `2s`, `500ms`, `1m` or `3` (seconds), in seconds; nil when malformed
    /// or not positive.
    package static func duration(_ text: String) -> Double? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
        var number = Substring(text), scale = 1.0
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            number = text.dropLast(suffix.count)
            scale = factor
            break
        }
        guard let value = Double(number), value.isFinite, value > 0 else { return nil }
        return value * scale
    }
}
