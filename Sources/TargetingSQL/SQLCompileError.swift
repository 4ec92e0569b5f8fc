/// Why `SQLCompiler` cannot compile a query.
package enum SQLCompileError: Error, Hashable, Sendable {
    /// No placement of the program has this name; `suggestion` is the nearest one.
    case unknownPlacement(String, suggestion: String?)
    /// No placement was named.
    case noPlacement
    /// The rules read a profile's history (`subject`: `shown main_paywall in 7d`, `last shown x`,
    /// or `sticky experiment NAME`), which the queries do not compile yet.
    case historyUnsupported(subject: String)
}
