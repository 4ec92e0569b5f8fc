/// What the bytes received so far on a connection come to.
package enum HTTPParseResult: Hashable, Sendable {
    /// A request is not whole yet. `expectsContinue`: its header section is whole, it asked
    /// for `Expect: 100-continue`, and its body has not all come.
    case incomplete(expectsContinue: Bool)
    /// A whole request, the first `length` bytes.
    case request(HTTPRequest, length: Int)
    /// The bytes cannot be a request the server takes: answer `status` with `message`, then
    /// close the connection (what follows cannot be framed).
    case refused(HTTPStatus, message: String)
}
