/// Why `SQLCompiler` cannot compile a query.
package enum SQLCompileError: Error, Hashable, Sendable {
    /// No placement of the program has this name; `suggestion` is the nearest one.
    case unknownPlacement(String, suggestion: String?)
    /// No placement was named.
    case noPlacement
    /// Two custom attributes read by the rules have the same column name in the typed table.
    case columnClash(String, keys: [String])
}
