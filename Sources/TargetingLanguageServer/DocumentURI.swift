import TargetingBase

/// `file:` URIs and the paths they name.
package enum DocumentURI {
    /// The path of a `file:` URI (percent escapes decoded), or nil for other schemes.
    package static func path(of uri: String) -> String? {
        guard uri.hasPrefix("file://") else { return nil }
        var rest = Substring(uri.dropFirst("file://".count))
        // `file://host/path`: only the empty host and `localhost` name this machine.
        if !rest.hasPrefix("/") {
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            rest = rest[slash...]
        }
        var bytes: [UInt8] = []
        var utf8 = Array(rest.utf8)[...]
        while let byte = utf8.first {
            utf8 = utf8.dropFirst()
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let high = hex(utf8[utf8.startIndex]), let low = hex(utf8[utf8.startIndex + 1]) {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The `file:` URI of an absolute path, escaping what RFC 3986 does not allow in a path.
    package static func uri(of path: String) -> String { "file://" + URIPath.encoded(path) }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
