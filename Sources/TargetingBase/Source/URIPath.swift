/// A file path written as the path of a URI (RFC 3986): every byte but the unreserved
/// characters (`A–Z a–z 0–9 - . _ ~`) and `/` percent-encoded, so no `:` reads as a scheme and
/// no character needs quoting anywhere a URI goes. The language server's `file:` URIs and the
/// SARIF log's artifact locations are written with it.
package enum URIPath {
    /// `path` percent-encoded: `my rules/ä.rules` is `my%20rules/%C3%A4.rules`.
    package static func encoded(_ path: String) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        var out = String.UnicodeScalarView()
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Unicode.Scalar(byte))
            default:
                out.append("%")
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 15)])
            }
        }
        return String(out)
    }
}
